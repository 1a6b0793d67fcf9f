// The websocket protocol, version 2 (docs/protocol.md): the first message says who this
// page is; the server sends `hello`, one whole `state`, then a `patch` after every move.
// A `Link` keeps its seat's state whole (patches applied) and reconnects when it drops.

export const PROTOCOL = 2;
/** Close codes after which reconnecting cannot help. */
export const FATAL = new Set([4401, 4403, 4404, 4500]);
const PING_EVERY = 25000;

/** `value` with the operations of a patch applied (a new value). */
export function applyPatch(value, ops) {
  let result = structuredClone(value);
  for (const op of ops) {
    const [kind, path] = op;
    if (kind === "=" && path.length === 0) {
      result = op[2];
      continue;
    }
    let parent = result;
    for (const step of path.slice(0, -1)) parent = parent[step];
    const last = path[path.length - 1];
    if (kind === "=") parent[last] = op[2];
    else if (kind === "-") delete parent[last];
    else if (kind === "~") {
      const list = path.length ? parent[last] : parent;
      list.splice(op[2], op[3], ...op[4]);
    } else throw new Error(`unknown patch operation ${kind}`);
  }
  return result;
}

/** A websocket to one game, as one seat (token) or a spectator (null). `handler` gets
 * `hello(link, message)`, `state(link, state)` (whole, after every state or patch),
 * `other(link, message)` and `connection(link)`; `fatal(link, code, last)` when the server
 * closes for good (its close code, and the last error it sent or null). */
export class Link {
  constructor(gameId, token, handler) {
    this.gameId = gameId;
    this.token = token;
    this.handler = handler;
    this.seat = undefined;
    this.latest = null;
    this.retry = 0;
    this.dead = false;
    this.lastError = null;
    this.bytes = []; // size of each state or patch received, for the curious (and tests)
    this.open();
    this.pinger = setInterval(() => this.send({ type: "ping" }), PING_EVERY);
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(this.gameId)}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "auth", token: this.token || null }));
      this.retry = 0;
      this.handler.connection(this);
    });
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", (event) => {
      this.handler.connection(this);
      if (FATAL.has(event.code)) {
        this.dead = true;
        clearInterval(this.pinger);
        this.handler.fatal(this, event.code, this.lastError);
        return;
      }
      if (this.closing) return;
      const wait = Math.min(10000, 500 * 2 ** this.retry++);
      setTimeout(() => this.open(), wait);
    });
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.type === "hello") {
      this.seat = message.seat;
      this.handler.hello(this, message);
    } else if (message.type === "state") {
      this.latest = message;
      this.handler.state(this, message);
    } else if (message.type === "patch") {
      this.bytes.push(text.length);
      if (!this.latest || message.from !== this.latest.ply) {
        this.ws.close(); // missed something: a new connection starts with a whole state
        return;
      }
      const { log, type, ...held } = this.latest;
      const next = applyPatch(held, message.ops);
      this.latest = { type, ...next, log: [...log, ...message.log].slice(-400) };
      this.handler.state(this, this.latest);
    } else {
      if (message.type === "error") this.lastError = message;
      this.handler.other(this, message);
    }
  }

  get connected() {
    return this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  send(message) {
    if (!this.connected) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.closing = true;
    clearInterval(this.pinger);
    this.ws.close();
  }
}
