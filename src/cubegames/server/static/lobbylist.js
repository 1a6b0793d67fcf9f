// The lobby's list as the server's /ws/lobby tells it (docs/protocol.md, "The lobby"): the
// whole list once (`lobby`, with its version), then a patch for each change
// (`lobby-patch`: the tables removed, changed and added). A patch that is not the next
// version, or does not fit the list held, makes the page ask for the whole list again.
// No DOM here: tests run it under Node.

/** A list held by a page before the server's first message. */
export function emptyList() {
  return { version: null, tables: [] };
}

/** `tables` after a patch's removals, changes and additions; null if it does not fit. */
export function patchTables(tables, patch) {
  const held = new Set(tables.map((t) => t.id));
  const removed = new Set(patch.removed || []);
  const changed = new Map((patch.changed || []).map((t) => [t.id, t]));
  for (const id of removed) if (!held.has(id)) return null;
  for (const id of changed.keys()) if (!held.has(id)) return null;
  const out = tables.filter((t) => !removed.has(t.id)).map((t) => changed.get(t.id) || t);
  const added = [...(patch.added || [])].sort((a, b) => a.at - b.at);
  for (const { at, table } of added) {
    if (!Number.isInteger(at) || at < 0 || at > out.length) return null;
    if (held.has(table.id) && !removed.has(table.id)) return null;
    out.splice(at, 0, table);
  }
  return out;
}

/** The list held after the server's `message`: a `lobby` message replaces it, a
 * `lobby-patch` of the next version patches it; null when the page must send
 * `{"type": "sync"}` (a patch missed, or one that does not fit). Other messages leave it. */
export function applyLobby(list, message) {
  if (message.type === "lobby") {
    return { version: Number.isInteger(message.version) ? message.version : null, tables: message.tables || [] };
  }
  if (message.type !== "lobby-patch") return list;
  if (list.version === null || message.version !== list.version + 1) return null;
  const tables = patchTables(list.tables, message);
  return tables === null ? null : { version: message.version, tables };
}
