// chart.js - bar charts drawn as inline SVG (no library).
// Negative values hang below the zero line, so sign never rests on colour;
// each bar carries a <title> and the caller shows the same data as a table.
import {s, h} from './dom.js';

/** About how wide text is at the chart's 11 px (tabular figures): for leaving out what would not fit. */
function textWidth(text) {
  return String(text).length * 6.6 + 4;
}

function niceStep(range, count) {
  const raw = range / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw || 1));
  const n = raw / mag;
  return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 2.5 ? 2.5 : n <= 5 ? 5 : 10) * mag;
}

/**
 * items: [{label, value, ref?, title?}]; value and ref in the same unit.
 * fmt formats an axis/value number. Returns a <figure> with the SVG and a caption.
 */
export function barChart(items, {fmt = String, title, description, refLabel, valueLabel = 'value', height = 270, width = 1100} = {}) {
  // Drawn at the width it will be shown at (when known), so text keeps its size.
  const W = Math.max(420, Math.min(1400, Math.round(width || 1100))), H = height, ml = 76, mr = 16, mt = 18, mb = 40;
  const iw = W - ml - mr, ih = H - mt - mb;
  const vals = items.flatMap(i => [i.value, i.ref]).filter(v => Number.isFinite(v));
  let lo = Math.min(0, ...vals), hi = Math.max(0, ...vals);
  if (lo === hi) hi = lo + 1;
  const step = niceStep(hi - lo, 4);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const y = v => mt + ih - ((v - lo) / (hi - lo)) * ih;
  const band = iw / Math.max(1, items.length);
  const bw = Math.max(2, Math.min(48, band * 0.64));

  const svg = s('svg', {viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img',
    'aria-label': title ? `${title}. ${description || ''}`.trim() : description, preserveAspectRatio: 'xMidYMid meet'});
  if (title) svg.append(s('title', null, title));
  const grid = s('g', {class: 'grid'});
  for (let v = lo; v <= hi + step / 2; v += step) {
    const yy = y(v);
    grid.append(s('line', {x1: ml, x2: W - mr, y1: yy, y2: yy, class: Math.abs(v) < step / 1e6 ? 'zero' : null}));
    grid.append(s('text', {x: ml - 8, y: yy, class: 'tick', 'text-anchor': 'end', 'dominant-baseline': 'middle'},
      fmt(Math.abs(v) < step / 1e6 ? 0 : v)));
  }
  svg.append(grid);

  // x labels no closer than the widest of them (and 84 px)
  const widest = Math.max(84, ...items.map(i => textWidth(i.label) + 12));
  const labelEvery = Math.ceil(items.length / Math.max(1, Math.floor(iw / widest)));
  const bars = s('g', {class: 'bars'});
  items.forEach((it, i) => {
    const cx = ml + band * i + band / 2;
    const g = s('g', {class: 'bar'});
    if (Number.isFinite(it.value)) {
      const y0 = y(0), y1 = y(it.value);
      const neg = it.value < 0;
      g.append(s('rect', {x: cx - bw / 2, width: bw, y: Math.min(y0, y1), height: Math.max(1, Math.abs(y1 - y0)),
        class: neg ? 'neg' : 'pos', rx: 2},
      s('title', null, it.title || `${it.label}: ${valueLabel} ${fmt(it.value)}`)));
      // The value over (under) its bar, only where it fits its band, kept clear of the axes' labels:
      // inside the plot's width (the y axis's ticks are left of it) and above the x axis's labels.
      const text = fmt(it.value);
      const tw = textWidth(text);
      if (tw <= band - 4) {
        const tx = Math.min(Math.max(cx, ml + tw / 2 + 2), W - mr - tw / 2);
        let ty = neg ? y1 + 13 : y1 - 5;
        if (neg && ty > mt + ih - 2) ty = y0 - 5;   // a loss down to the axis: its value above the zero line
        if (!neg && ty < 11) ty = 11;
        g.append(s('text', {x: tx, y: ty, class: 'val', 'text-anchor': 'middle'}, text));
      }
    }
    if (Number.isFinite(it.ref)) {
      g.append(s('line', {x1: cx - bw / 2 - 4, x2: cx + bw / 2 + 4, y1: y(it.ref), y2: y(it.ref), class: 'ref'},
        s('title', null, `${it.label}: ${refLabel || 'reference'} ${fmt(it.ref)}`)));
    }
    if (i % labelEvery === 0) {
      g.append(s('text', {x: cx, y: H - mb + 18, class: 'xlabel', 'text-anchor': 'middle'}, it.label));
    }
    bars.append(g);
  });
  svg.append(bars);

  const legend = h('div', {class: 'legend'},
    h('span', {class: 'key'}, h('span', {class: 'swatch bar-swatch', 'aria-hidden': 'true'}), `${valueLabel} above zero`),
    items.some(i => i.value < 0)
      ? h('span', {class: 'key'}, h('span', {class: 'swatch bar-swatch-neg', 'aria-hidden': 'true'}), `${valueLabel} below zero (a loss; the bar hangs below the line)`)
      : null,
    refLabel && items.some(i => Number.isFinite(i.ref))
      ? h('span', {class: 'key'}, h('span', {class: 'swatch ref-swatch', 'aria-hidden': 'true'}), refLabel)
      : null);
  return h('figure', {class: 'chart-figure'}, svg, h('figcaption', null, legend));
}
