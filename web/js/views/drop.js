// drop.js - the count team's view: the drop of a table (docs/page.md,
// "The drop"), with the day's documents of the table beside it.  The
// count signs the drop (docs/accounting.md); the form is the table's
// inventory panel (js/inventory.js), which offers each role the forms it signs.
import * as api from '../api.js';
import {h} from '../dom.js';
import {pageHeader} from '../common.js';
import {inventoryPanel} from '../inventory.js';

export const name = 'drop';

export async function render(main, params, ctx) {
  ctx.setTitle('Drop');
  const tables = api.tables();
  const chosen = tables.find(t => t.id === ctx.query.get('table')) || tables[0];
  const day = api.property()?.gaming_day;
  main.append(pageHeader('Drop', {sub: `Count each table's drop box${day ? ` for gaming day ${day}` : ''}.`}));
  if (!chosen) {
    main.append(h('p', {class: 'empty'}, 'There are no tables.'));
    return;
  }
  const picker = h('select', {id: 'drop-table', name: 'table'},
    tables.map(t => h('option', {value: t.id, selected: t === chosen ? true : null}, `${t.id} · ${t.name}`)));
  picker.addEventListener('change', () => { location.hash = `#/drop?table=${encodeURIComponent(picker.value)}`; });
  main.append(h('div', {class: 'field drop-pick'}, h('label', {for: 'drop-table'}, 'Table'), picker),
    inventoryPanel(chosen, ctx));
}
