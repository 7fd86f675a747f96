/// The builder's script: reads the form, keeps the preview, the snippets and
/// the address's `#query` up to date, and shows the service's `400` line
/// when a combination cannot be drawn. The image's size in CSS pixels comes
/// from the drawn image itself (its pixels divided by `scale`), so no
/// geometry is repeated here.
extension BuilderPage {
    static let script = #"""

    'use strict';
    const $ = (id) => document.getElementById(id);
    const form = $('builder');
    const fields = [...form.querySelectorAll('[data-param]')];
    const light = fields.filter((field) => !('dark' in field.dataset));
    const dark = fields.filter((field) => 'dark' in field.dataset);
    const byName = new Map(light.map((field) => [field.name, field]));
    const text = (name) => (byName.get(name)?.value ?? '').trim();

    // Whether the service draws with this parameter, given style, fill, format, theme and effect.
    function isUsed(field) {
      const use = field.closest('.field').dataset;
      return use.styles.split(' ').includes(text('style') || 'dots')
        && (!use.fill || use.fill === (text('fill') || 'solid'))
        && (!use.formats || use.formats.split(' ').includes(text('format') || 'png'))
        && (!use.themes || use.themes.split(' ').includes(text('theme') || 'light'))
        && (!use.effects || use.effects.split(' ').includes(text('effect') || 'slide'));
    }

    // A value as the URL spells it: colours without '#', list items encoded one by one.
    function encoded(field, value) {
      const item = (part) => encodeURIComponent('color' in field.dataset ? part.trim().replace(/^#/, '') : part.trim());
      return 'list' in field.dataset ? value.split(',').map(item).join(',') : item(value);
    }

    // The query of the light image; `replaced` maps names to other values ('' leaves one out).
    function query(replaced = new Map()) {
      const pairs = [];
      for (const field of light) {
        const value = replaced.has(field.name) ? replaced.get(field.name) : field.value.trim();
        if (value === '' || value === field.dataset.default || !isUsed(field)) continue;
        pairs.push(field.name + '=' + encoded(field, value));
      }
      return pairs.join('&');
    }

    // The dark image's query: the light one with the dark-mode colours that are set.
    function darkQuery() {
      const replaced = new Map();
      for (const field of dark) {
        const value = field.value.trim();
        if (value === '') continue;
        replaced.set(field.name, value);
        if (field.name === 'color') {
          replaced.set('colors', '');
          if (!replaced.has('inactive')) replaced.set('inactive', '');
        }
      }
      return query(replaced);
    }

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

    function showError(message) {
      $('error').textContent = message;
      $('error').hidden = false;
      $('size').textContent = '';
      for (const id of ['preview', 'preview-dark']) $(id).hidden = true;
      for (const id of ['img-snippet', 'picture-snippet']) $(id).value = '';
    }

    function show(url, darkUrl, image) {
      const scale = text('format') === 'svg' ? 1 : Number(text('scale') || 1);
      const width = Math.round(image.naturalWidth / scale);
      const height = Math.round(image.naturalHeight / scale);
      const pages = Number(text('pages'));
      const alt = 'Page ' + (Number(text('current') || 0) + 1) + ' of ' + pages;
      for (const [id, src] of [['preview', url], ['preview-dark', darkUrl]]) {
        Object.assign($(id), { src, width, height, hidden: false });
      }
      $('error').hidden = true;
      $('size').textContent = width + ' × ' + height + ' CSS pixels'
        + (scale > 1 ? ' (' + image.naturalWidth + ' × ' + image.naturalHeight + ' image pixels)' : '');
      const img = '<img src="' + escaped(url) + '" width="' + width + '" height="' + height + '" alt="' + escaped(alt) + '">';
      $('img-snippet').value = img;
      $('picture-snippet').value = '<picture>\n  <source srcset="' + escaped(darkUrl)
        + '" media="(prefers-color-scheme: dark)">\n  ' + img + '\n</picture>';
    }

    let drawing = 0;
    function update() {
      for (const field of light) field.closest('.field').hidden = !isUsed(field);
      const current = byName.get('current');
      current.max = Math.max(0, Number(text('pages') || 1) - 1);
      const lightQuery = query();
      const url = absolute('/indicator?' + lightQuery);
      const darkUrl = absolute('/indicator?' + darkQuery());
      $('url').value = url;
      history.replaceState(null, '', '#' + lightQuery);
      const turn = ++drawing;
      Promise.all([draw(url), draw(darkUrl)]).then(
        ([image]) => { if (turn === drawing) show(url, darkUrl, image); },
        (error) => { if (turn === drawing) showError(error.message); });
    }

    let pending;
    function scheduleUpdate() {
      clearTimeout(pending);
      pending = setTimeout(update, 150);
    }

    // Sets every light control from a query; what it leaves out takes its default.
    function load(search) {
      const values = new URLSearchParams(search);
      for (const field of light) field.value = values.get(field.name) ?? field.dataset.default;
      syncPickers();
      update();
    }

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
    if (location.hash.length > 1) load(location.hash.slice(1));
    else { syncPickers(); update(); }

    """#
}
