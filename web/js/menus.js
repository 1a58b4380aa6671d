// menus.js - which views of the pit boss page a signed-in person may use,
// and where each person lands (docs/page.md, "Who sees what").
//
// The daemon decides what each role may read (docs/api.md, the roles;
// daemon/table/core/access.c): the page offers only the views whose reads
// the person's roles pass, so nobody lands on a page of refusals.  A
// terminal token (no person) is offered every view: the daemon decides.
import * as session from './session.js';

const REPORTS = ['pitboss', 'floor', 'auditor', 'surveillance', 'admin'];
const AUDIT = ['pitboss', 'auditor', 'surveillance', 'admin'];
const PERSONAL = ['cage', 'floor', 'pitboss', 'admin', 'surveillance', 'auditor'];

// Each view's menu entry (data-nav in index.html) and the roles that may use it.
const VIEWS = {
  floor: [...REPORTS, 'security'],
  reports: REPORTS,
  master: REPORTS,
  statistics: REPORTS,
  exceptions: REPORTS,
  events: AUDIT,
  players: PERSONAL,
  title31: PERSONAL,
  cage: ['cage', 'pitboss', 'admin'],
  drop: ['count'],
};

// Where a person lands, the first of these his roles allow.
const LANDINGS = [
  [['pitboss', 'floor', 'admin'], '#/floor'],
  [['surveillance', 'auditor'], '#/exceptions'],
  [['cage'], '#/cage'],
  [['count'], '#/drop'],
  [['security'], '#/floor'],
];

/** The signed-in person's roles, or null for a terminal token. */
function roles() {
  const s = session.current();
  return s ? s.person.roles || [] : null;
}

/** Whether the signed-in person may use the view of menu entry nav. */
export function allows(nav) {
  const r = roles();
  if (r === null) return nav !== 'drop';
  return (VIEWS[nav] || []).some(x => r.includes(x));
}

/**
 * Where the signed-in person lands: a hash of this page, '/dealer/' for a
 * person who only deals (the dealer's page), or null when none of his roles
 * has a view here.
 */
export function landing() {
  const r = roles();
  if (r === null) return '#/floor';
  for (const [want, hash] of LANDINGS) if (want.some(x => r.includes(x))) return hash;
  if (r.includes('dealer')) return '/dealer/';
  return null;
}

/** The menu entries there are (for a test and for the top bar). */
export const NAVS = Object.keys(VIEWS);
