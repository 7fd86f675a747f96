/// The builder's script: reads the form, keeps the previews (light and
/// dark), the snippets and the address's `#query` up to date, and shows the
/// service's `400` line when a combination cannot be drawn. The image's size
/// in CSS pixels comes from the drawn image itself (its pixels divided by
/// `scale`), so no geometry is repeated here; which parameters a URL carries
/// comes from the table's "used with" rules, asked with the theme (and
/// format) of the image that URL is for. A calendar URL's page now and its
/// next change come from the service's answer (`X-Current-Page`, `Date` and
/// `max-age`), so no calendar is repeated here either. The presets come from
/// `/presets.json`; a URL that names one carries only what differs from it.
extension BuilderPage {
    static let script = #"""

    'use strict';
    const $ = (id) => document.getElementById(id);
    const form = $('builder');
    const fields = [...form.querySelectorAll('[data-param]')];
    const byName = new Map(fields.map((field) => [field.name, field]));
    // Values that stand in for the controls' own while the URL of another theme is made.
    let standIns = new Map();
    const text = (name) => (standIns.get(name) ?? byName.get(name)?.value ?? '').trim();
    function withStandIns(values, work) {
      standIns = values;
      try { return work(); } finally { standIns = new Map(); }
    }

    // The operator's presets, by name: each a map of its parameters (filled from /presets.json).
    let presets = new Map();
    const presetChoice = $('preset-choice');
    const presetValues = () => presets.get(presetChoice.value) ?? new Map();
    // What a control left alone means: the chosen preset's value, else the default.
    const baseline = (field) => presetValues().get(field.name) ?? field.dataset.default;
    // With start (and every) the page comes from the clock, and current may not be given.
    const onCalendar = () => text('start') !== '';

    // Whether the service draws with this parameter, given style, fill, format, theme and effect.
    function isUsed(field) {
      if (field.name === 'current' && onCalendar()) return false;
      // The service refuses every without start: it waits in its box until start is given.
      if (field.name === 'every' && !onCalendar()) return false;
      const use = field.closest('.field').dataset;
      return use.styles.split(' ').includes(text('style') || 'dots')
        && (!use.fill || use.fill === (text('fill') || 'solid'))
        && (!use.formats || use.formats.split(' ').includes(text('format') || 'png'))
        && (!use.themes || use.themes.split(' ').includes(text('theme') || 'light'))
        && (!use.effects || use.effects.split(' ').includes(text('effect') || 'slide'));
    }

    // A value as the URL spells it: colours without '#', list items encoded one by one, and ':' and '/'
    // (a time, a time zone) left as they are, as a query allows.
    function encoded(field, value) {
      const item = (part) => encodeURIComponent('color' in field.dataset ? part.trim().replace(/^#/, '') : part.trim())
        .replace(/%3A/g, ':').replace(/%2F/g, '/');
      return 'list' in field.dataset ? value.split(',').map(item).join(',') : item(value);
    }

    // The query of the controls' image, or with `values` standing in for some
    // controls (another theme): the preset, then what differs from it (or
    // from the default), is not empty and is used.
    function query(values = new Map()) {
      const preset = presetChoice.value ? ['preset=' + encodeURIComponent(presetChoice.value)] : [];
      return withStandIns(values, () => preset.concat(fields
        .filter((field) => text(field.name) !== '' && text(field.name) !== baseline(field) && isUsed(field))
        .map((field) => field.name + '=' + encoded(field, text(field.name))))
        .join('&'));
    }
    const themed = (theme, format) => new Map(format ? [['theme', theme], ['format', format]] : [['theme', theme]]);

    const absolute = (path) => new URL(path, location.href).href;
    const escaped = (value) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

    // Resolves with the loaded image, or rejects with the service's answer in one line.
    function draw(url) {
      return new Promise((resolve, reject) => {
        const image = new Image();
        image.onload = () => resolve(image);
        image.onerror = () => fetch(url)
          .then(async (response) => reject(new Error(response.ok
            ? 'the image did not load'
            : response.status + ': ' + (await response.text()).trim())))
          .catch(() => reject(new Error('the service did not answer')));
        image.src = url;
      });
    }

    // For a calendar URL: its page now and when it next changes, as the service
    // answers them (null for any other URL, or when the service does not answer).
    function calendarNow(url) {
      if (!onCalendar()) return Promise.resolve(null);
      return fetch(url, { method: 'HEAD' }).then((response) => {
        const page = response.headers.get('x-current-page');
        if (!response.ok || page === null) return null;
        const cacheControl = response.headers.get('cache-control') ?? '';
        const maxAge = /immutable/.test(cacheControl) ? null : Number(/max-age=(\d+)/.exec(cacheControl)?.[1]);
        const sent = Date.parse(response.headers.get('date') ?? '') || Date.now();
        return { page: Number(page), changes: maxAge === null ? null : new Date(sent + maxAge * 1000) };
      }, () => null);
    }

    function showCalendar(calendar) {
      const status = $('calendar-status');
      status.hidden = calendar === null;
      if (calendar === null) return;
      const now = 'Now page ' + (calendar.page + 1) + ' of ' + text('pages') + ' (current=' + calendar.page + '). ';
      if (calendar.changes === null) {
        status.textContent = now + 'That is the last page: the image no longer changes, and caches may keep it for good.';
        return;
      }
      const minutes = Math.max(0, Math.round((calendar.changes - Date.now()) / 60000));
      const wait = minutes >= 60 * 24 ? Math.floor(minutes / 1440) + ' d ' + Math.floor(minutes % 1440 / 60) + ' h'
        : minutes >= 60 ? Math.floor(minutes / 60) + ' h ' + minutes % 60 + ' min' : minutes + ' min';
      status.textContent = now + 'Caches ask again at ' + calendar.changes.toLocaleString() + ' (your time), in ' + wait
        + ', when the page changes' + (calendar.page === 0 ? ' or the calendar starts' : '') + '.';
    }

    function showError(message) {
      $('error').textContent = message;
      $('error').hidden = false;
      $('size').textContent = '';
      for (const id of ['preview', 'preview-dark']) $(id).hidden = true;
      for (const id of ['img-snippet', 'picture-snippet', 'github-snippet', 'auto-url']) $(id).value = '';
      $('calendar-status').hidden = true;
    }

    // `urls` are the controls' image and the same in the light theme, in the dark one and as an SVG that switches;
    // `calendar` its page now and next change, for a calendar URL.
    function show(urls, image, calendar) {
      const scale = text('format') === 'svg' ? 1 : Number(text('scale') || 1);
      const width = Math.round(image.naturalWidth / scale);
      const height = Math.round(image.naturalHeight / scale);
      const pages = Number(text('pages'));
      // A calendar image shows another page each day: its alt text cannot name one.
      const alt = onCalendar() ? 'Page indicator of ' + pages + ' pages' : 'Page ' + (Number(text('current') || 0) + 1) + ' of ' + pages;
      showCalendar(calendar);
      for (const [id, src] of [['preview', urls.light], ['preview-dark', urls.dark]]) {
        Object.assign($(id), { src, width, height, hidden: false });
      }
      $('error').hidden = true;
      $('size').textContent = width + ' × ' + height + ' CSS pixels'
        + (scale > 1 ? ' (' + image.naturalWidth + ' × ' + image.naturalHeight + ' image pixels)' : '');
      const img = (src) => '<img src="' + escaped(src) + '" width="' + width + '" height="' + height + '" alt="' + escaped(alt) + '">';
      $('img-snippet').value = img(urls.chosen);
      $('picture-snippet').value = '<picture>\n  <source srcset="' + escaped(urls.dark)
        + '" media="(prefers-color-scheme: dark)">\n  ' + img(urls.light) + '\n</picture>';
      $('github-snippet').value = img(urls.light + '#gh-light-mode-only') + '\n' + img(urls.dark + '#gh-dark-mode-only');
      $('auto-url').value = urls.auto;
    }

    let drawing = 0;
    function update() {
      // A control shows when its image or the dark one (which every snippet but the URL has) uses it.
      for (const field of fields) {
        field.closest('.field').hidden = !isUsed(field) && !withStandIns(themed('dark'), () => isUsed(field));
      }
      // A group none of whose controls is used (the animation's, for a still image) hides too.
      for (const set of form.querySelectorAll('fieldset')) {
        set.hidden = [...set.querySelectorAll('.field')].every((box) => box.hidden);
      }
      const note = $('animation-note');
      note.hidden = !note.dataset.formats.split(' ').includes(text('format') || 'png');
      note.querySelector('[data-page]').textContent = Number(text('current') || 0) + 1;
      const current = byName.get('current');
      current.max = Math.max(0, Number(text('pages') || 1) - 1);
      const chosen = query();
      const url = (values) => absolute('/indicator?' + query(values));
      const urls = { chosen: absolute('/indicator?' + chosen), light: url(themed('light')), dark: url(themed('dark')),
        auto: url(themed('auto', 'svg')) };
      $('url').value = urls.chosen;
      history.replaceState(null, '', '#' + chosen);
      const turn = ++drawing;
      Promise.all([draw(urls.chosen), draw(urls.light), draw(urls.dark), calendarNow(urls.chosen)]).then(
        ([image, , , calendar]) => { if (turn === drawing) show(urls, image, calendar); },
        (error) => { if (turn === drawing) showError(error.message); });
    }

    let pending;
    function scheduleUpdate() {
      clearTimeout(pending);
      pending = setTimeout(update, 150);
    }

    // Sets every control from a query; what it leaves out takes its preset's value or its default.
    function load(search) {
      const values = new URLSearchParams(search);
      presetChoice.value = presets.has(values.get('preset')) ? values.get('preset') : '';
      for (const field of fields) field.value = values.get(field.name) ?? baseline(field);
      syncPickers();
      update();
    }

    // Choosing a preset sets the look to its values; the page, its calendar, titles, format and scale stay.
    const keptByPresets = new Set(['pages', 'current', 'start', 'every', 'tz', 'labels', 'format', 'scale']);
    presetChoice.addEventListener('change', () => {
      for (const field of fields) {
        if (!keptByPresets.has(field.name) || presetValues().has(field.name)) field.value = baseline(field);
      }
      syncPickers();
    });

    // Colour pickers show the text's colour and write into the text.
    const canvas = document.createElement('canvas').getContext('2d');
    function pickerColor(value) {
      canvas.fillStyle = '#000000';
      canvas.fillStyle = /^#?[0-9a-f]{3,8}$/i.test(value) ? '#' + value.replace(/^#/, '') : value;
      const style = canvas.fillStyle;
      if (style.startsWith('#')) return style;
      const [r, g, b] = style.match(/\d+/g).map(Number);
      return '#' + [r, g, b].map((channel) => channel.toString(16).padStart(2, '0')).join('');
    }
    function syncPickers() {
      for (const picker of form.querySelectorAll('[data-picker-for]')) {
        const field = $(picker.dataset.pickerFor);
        picker.value = pickerColor(field.value.trim() || field.placeholder || 'black');
      }
    }
    form.addEventListener('input', (event) => {
      const target = event.target;
      if ('pickerFor' in target.dataset) $(target.dataset.pickerFor).value = target.value.slice(1).toUpperCase();
      else if ('color' in target.dataset && !('list' in target.dataset)) syncPickers();
      scheduleUpdate();
    });
    form.addEventListener('change', scheduleUpdate);

    for (const button of document.querySelectorAll('button.use')) {
      button.addEventListener('click', () => {
        load(button.dataset.query);
        $('build').scrollIntoView({ behavior: 'smooth' });
      });
    }

    for (const button of document.querySelectorAll('button[data-copy]')) {
      button.addEventListener('click', async () => {
        const output = $(button.dataset.copy);
        try {
          await navigator.clipboard.writeText(output.value);
        } catch {
          output.select();
          document.execCommand('copy');
        }
        button.textContent = 'Copied';
        setTimeout(() => { button.textContent = 'Copy'; }, 1500);
      });
    }

    window.addEventListener('hashchange', () => load(location.hash.slice(1)));
    // The presets first (a #query may name one), then the first drawing.
    fetch('/presets.json').then((response) => (response.ok ? response.json() : {})).catch(() => ({})).then((list) => {
      presets = new Map(Object.entries(list).map(([name, preset]) => [name, new Map(new URLSearchParams(preset))]));
      for (const name of presets.keys()) presetChoice.append(new Option(name, name));
      presetChoice.closest('.field').hidden = presets.size === 0;
      if (location.hash.length > 1) load(location.hash.slice(1));
      else { syncPickers(); update(); }
    });

    """#
}
