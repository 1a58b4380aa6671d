// dom.js - a tiny element builder and the few DOM helpers the views share.
// No framework: views build nodes with h() and update text in place.

const SVG_NS = 'http://www.w3.org/2000/svg';

function apply(el, props) {
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.setAttribute('class', v);
    else if (k === 'text') el.textContent = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** h('div', {class: 'x'}, child, ...) builds an HTML element. */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  apply(el, props);
  append(el, children);
  return el;
}

/** s('rect', {...}) builds an SVG element. */
export function s(tag, props, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, props);
  append(el, children);
  return el;
}

/** Sets a node's text only when it changed, so polling never flickers. */
export function setText(el, text) {
  const t = text === null || text === undefined ? '' : String(text);
  if (el.textContent !== t) el.textContent = t;
}

/** Replaces a container's children only when the new markup differs. */
export function replaceIfChanged(container, node) {
  const next = node.outerHTML;
  if (container.dataset.rendered === next) return;
  container.dataset.rendered = next;
  container.replaceChildren(node);
}

/** A note box: kind is 'info', 'warn' or 'error'; the icon carries the meaning too. */
export function note(kind, ...children) {
  const icon = {info: 'ℹ', warn: '⚠', error: '✖', ok: '✔'}[kind] || 'ℹ';
  const label = {info: 'Note', warn: 'Warning', error: 'Error', ok: 'OK'}[kind] || 'Note';
  return h('div', {class: `note note-${kind}`, role: kind === 'error' ? 'alert' : null},
    h('span', {class: 'note-icon', 'aria-hidden': 'true'}, icon),
    h('span', {class: 'visually-hidden'}, label + ': '),
    h('div', {class: 'note-body'}, ...children));
}

/** A section with a heading; returns [section, body]. */
export function section(title, {id, actions} = {}) {
  const hid = id ? `${id}-title` : undefined;
  const body = h('div', {class: 'panel-body'});
  const sec = h('section', {class: 'panel', id, 'aria-labelledby': hid},
    h('div', {class: 'panel-head'}, h('h2', {id: hid}, title), actions ? h('div', {class: 'panel-actions'}, actions) : null),
    body);
  return [sec, body];
}

/**
 * A data table. cols: [{key, label, num, render(row) -> node|string, className}].
 * caption is read by screen readers; visible captions are the section headings.
 */
export function dataTable(cols, rows, {caption, empty = 'Nothing to show.', rowClass, foot} = {}) {
  if (!rows.length) return h('p', {class: 'empty'}, empty);
  const cell = (c, r, i, tag) => {
    const v = c.render ? c.render(r) : r[c.key];
    const cls = [c.num ? 'num' : '', c.className || ''].join(' ').trim() || null;
    return i === 0 && (c.rowHeader || tag === 'tfoot') ? h('th', {scope: 'row', class: cls}, v) : h('td', {class: cls}, v);
  };
  const thead = h('thead', null, h('tr', null, cols.map(c =>
    h('th', {scope: 'col', class: [c.num ? 'num' : '', c.className || ''].join(' ').trim() || null}, c.label))));
  const tbody = h('tbody', null, rows.map(r => h('tr', {class: rowClass ? rowClass(r) : null},
    cols.map((c, i) => cell(c, r, i, 'tbody')))));
  const tfoot = foot ? h('tfoot', null, h('tr', null, cols.map((c, i) => cell(c, foot, i, 'tfoot')))) : null;
  return h('div', {class: 'table-wrap'},
    h('table', {class: 'data'}, caption ? h('caption', {class: 'visually-hidden'}, caption) : null, thead, tbody, tfoot));
}

/** A definition list of [term, value] pairs. */
export function facts(pairs) {
  return h('dl', {class: 'facts'}, pairs.filter(Boolean).map(([k, v]) =>
    h('div', {class: 'fact'}, h('dt', null, k), h('dd', null, v))));
}
