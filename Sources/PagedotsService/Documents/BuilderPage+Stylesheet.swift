/// The page's only style sheet: system fonts, light and dark schemes, and a
/// chequerboard behind the light preview so transparency shows.
extension BuilderPage {
    static let stylesheet = """

    :root { color-scheme: light dark; --fg: #1c1c1e; --muted: #6e6e73; --line: #d1d1d6; --card: #f2f2f7; --accent: #007aff; }
    @media (prefers-color-scheme: dark) { :root { --fg: #f2f2f7; --muted: #98989d; --line: #3a3a3c; --card: #1c1c1e; --accent: #0a84ff; } }
    * { box-sizing: border-box; }
    body { margin: 0 auto; max-width: 72rem; padding: 1.5rem; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); }
    h1 { margin: 0; font-size: 1.8rem; }
    h2 { font-size: 1.2rem; margin: 1.5rem 0 .6rem; }
    header p { margin: .3rem 0; color: var(--muted); }
    a { color: var(--accent); }
    code, textarea { font: 13px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; }
    .gallery { display: flex; flex-wrap: wrap; gap: .6rem; }
    .gallery figure { margin: 0; text-align: center; }
    .gallery figcaption { font-size: 12px; color: var(--muted); margin-top: .2rem; }
    button { font: inherit; cursor: pointer; border: 1px solid var(--line); border-radius: 8px; background: var(--card); color: var(--fg); padding: .3rem .8rem; }
    button:hover, button:focus-visible { border-color: var(--accent); }
    button.use { display: flex; align-items: center; justify-content: center; min-width: 8rem; min-height: 3.2rem; padding: .6rem; }
    .builder { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 1.5rem; align-items: start; }
    @media (max-width: 50rem) { .builder { grid-template-columns: 1fr; } }
    fieldset { border: 1px solid var(--line); border-radius: 10px; margin: 0 0 .8rem; padding: .4rem .8rem .6rem; display: grid; grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr)); gap: .5rem .8rem; }
    fieldset[hidden] { display: none; }
    legend { font-weight: 600; padding: 0 .3rem; }
    .field { display: flex; flex-direction: column; gap: .1rem; min-width: 0; }
    .field[hidden] { display: none; }
    .field label { font-weight: 600; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
    .field small { color: var(--muted); font-size: 11px; line-height: 1.3; }
    input, select { font: inherit; width: 100%; padding: .25rem .4rem; border: 1px solid var(--line); border-radius: 6px; background: transparent; color: var(--fg); min-width: 0; }
    .pair { display: flex; gap: .3rem; }
    input[type=color] { width: 2.4rem; flex: none; padding: 0 .1rem; height: auto; }
    .result { position: sticky; top: 1rem; display: flex; flex-direction: column; gap: .7rem; }
    .previews { display: grid; grid-template-columns: 1fr 1fr; gap: .6rem; }
    .preview { margin: 0; min-height: 6rem; border-radius: 10px; display: flex; flex-direction: column; align-items: center; justify-content: center; gap: .4rem; padding: 1rem; overflow: auto; }
    .preview figcaption { font-size: 11px; }
    .preview.light { color: #6e6e73; background: #fff conic-gradient(#eee 25%, #fff 0 50%, #eee 0 75%, #fff 0) 0 0 / 16px 16px; border: 1px solid var(--line); }
    .preview.dark { color: #98989d; background: #000; }
    #size { margin: 0; color: var(--muted); }
    .note { font-size: 12px; color: var(--muted); border-left: 3px solid var(--accent); padding: 0 .6rem; }
    .note p { margin: .2rem 0; }
    #calendar-status { grid-column: 1 / -1; margin: .2rem 0; }
    #error, #c-error { margin: 0; padding: .6rem .8rem; border-radius: 8px; background: #ff3b3020; border: 1px solid #ff3b30; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
    .output { display: flex; flex-direction: column; gap: .2rem; }
    .output .head { display: flex; justify-content: space-between; align-items: end; }
    .output label { font-weight: 600; }
    .output small { color: var(--muted); font-size: 12px; }
    .lead { margin: 0 0 .8rem; color: var(--muted); }
    #c-make { justify-self: start; }
    .field.wide { grid-column: 1 / -1; }
    .choices { display: flex; flex-wrap: wrap; gap: .2rem 1.2rem; }
    .field .choices label, .field label.check { display: flex; align-items: center; gap: .35rem; font: inherit; }
    input[type=radio], input[type=checkbox] { width: auto; margin: 0; }
    .field textarea { width: 100%; resize: vertical; padding: .25rem .4rem; border: 1px solid var(--line); border-radius: 6px; background: transparent; color: var(--fg); }
    #c-status { margin: 0; color: var(--muted); }
    .facts { display: grid; grid-template-columns: auto 1fr; gap: .15rem .8rem; margin: 0; font-size: 13px; }
    .facts[hidden] { display: none; }
    .facts dt { color: var(--muted); }
    .facts dd { margin: 0; font-family: ui-monospace, "DejaVu Sans Mono", monospace; overflow-wrap: anywhere; }
    .carousel-result { border: 1px solid var(--line); min-height: 8rem; }
    .carousel-result img { max-width: 100%; height: auto; }
    .output textarea { width: 100%; resize: vertical; padding: .4rem; border: 1px solid var(--line); border-radius: 6px; background: var(--card); color: var(--fg); }

    """
}
