'use strict';
// The SVG renderer SvgRenderer keeps: `node --expose-gc vl_render_server.js NODE_MODULES` serves
// its stdin, and `node --expose-gc vl_render_server.js NODE_MODULES --listen SOCKET --idle-seconds N`
// serves a Unix socket shared by later processes, exiting (and removing the socket) after N seconds
// without a request.
// A client sends frames "<byte length>\n<Vega-Lite spec>" and gets, for each in order, "started 0\n"
// when its render begins (a shared server may render other clients' specs first), then the answer
// "ok <byte length>\n<svg>" or "error <byte length>\n<message>". On the socket, a frame still
// waiting when its client closes the connection is dropped. A spec renders as vega-lite's
// bin/vl2svg renders it (compile, headless View, toSVG), with the SVG clip, gradient and vega-lite
// id counters reset first, so the SVG is the one a fresh vl2svg gives.
const fs = require('fs');
const net = require('net');
const path = require('path');

const modules = process.argv[2];
const vega = require(path.join(modules, 'vega'));
const vegaLite = require(path.join(modules, 'vega-lite'));

function render(text) {
  vega.resetSVGDefIds();
  vegaLite.resetIdCounter();
  const vgSpec = vegaLite.compile(JSON.parse(text), {config: null}).spec;
  const view = new vega.View(vega.parse(vgSpec), {
    locale: {number: null, time: null},
    loader: vega.loader({baseURL: null}),
    logger: vega.logger(vega.Warn, 'error'),
    renderer: 'none'
  }).finalize();
  return view.toSVG(undefined);
}

let queue = Promise.resolve();  // renders run one at a time, in the order their frames arrived
let waiting = 0;  // frames read and not yet answered
let idleScheduled = false;  // an idle() step is pending
let warmUpsLeft = 0;  // renders of warmUpChart() still to do in idle time
let onFrameDone = () => {};

// Resolves after the event loop has turned: a render runs in microtasks from start to end, so
// without this turn no socket is read (and no closed connection seen) until the queue is empty.
const turn = () => new Promise((resolve) => setImmediate(resolve));

// A line per color over 36 months, with point marks: the kind of chart planfirst draws. Node
// compiles vega's hot paths only after a few renders, so a fresh server's next renders of a
// 1,440-point chart take 2-4x their steady time (77, 73, 44 ms, then ~30); after ten renders of
// this chart (~0.3 s), 29 ms from the first.
function warmUpChart() {
  const values = [];
  for (let series = 0; series < 5; series += 1) {
    for (let month = 0; month < 36; month += 1) {
      const date = new Date(Date.UTC(2020, month, 1)).toISOString().slice(0, 10);
      values.push({month: date, series: 'S' + series, value: (series + 1) * ((month % 12) + 1)});
    }
  }
  return JSON.stringify({
    data: {values},
    mark: {type: 'line', point: true},
    encoding: {
      x: {field: 'month', type: 'temporal'},
      y: {field: 'value', type: 'quantitative'},
      color: {field: 'series', type: 'nominal'}
    }
  });
}

// Once no frame waits: collects the young objects the last render left (node runs with
// --expose-gc; ~12 MB for a 1,440-point chart, which V8 would otherwise copy in the middle of the
// next render, ~6 ms), then renders the warm-up chart if any renders are left. A frame that
// arrives meanwhile waits for at most that one render.
function idle() {
  if (idleScheduled) return;
  idleScheduled = true;
  setImmediate(() => {
    idleScheduled = false;
    if (waiting > 0) return;
    if (typeof global.gc === 'function') global.gc({type: 'minor'});
    if (warmUpsLeft === 0) return;
    warmUpsLeft -= 1;
    queue = queue
      .then(() => render(warmUpChart()))
      .catch(() => undefined)
      .then(idle);
  });
}

// Reads frames from `input` and writes each answer with `write`; a bad header ends the stream.
// With `dropOnClose` (a connection), frames still waiting when `input` closes are not rendered.
function serve(input, write, end, dropOnClose) {
  let pending = Buffer.alloc(0);
  let open = true;
  if (dropOnClose) {  // 'end' (the client closed its side) comes before the loop turns; 'close' after
    const gone = () => {
      open = false;
    };
    input.on('end', gone);
    input.on('close', gone);
  }
  const answer = (kind, body) => write(kind + ' ' + Buffer.byteLength(body) + '\n' + body);
  input.on('data', (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      const newline = pending.indexOf(10);
      if (newline < 0) return;
      const length = Number(pending.subarray(0, newline).toString('latin1'));
      if (!Number.isSafeInteger(length) || length < 0) {
        answer('error', 'bad frame header: ' + pending.subarray(0, Math.min(newline, 40)).toString('latin1'));
        pending = Buffer.alloc(0);
        end();
        return;
      }
      if (pending.length < newline + 1 + length) return;
      const text = pending.subarray(newline + 1, newline + 1 + length).toString('utf8');
      pending = pending.subarray(newline + 1 + length);
      waiting += 1;
      queue = queue
        .then(turn)
        .then(() => {
          if (!open) return undefined;  // its client has gone
          answer('started', '');
          return render(text).then((svg) => answer('ok', svg));
        })
        .catch((err) => answer('error', String((err && err.stack) || err)))
        .then(() => {
          waiting -= 1;
          onFrameDone();
          if (waiting === 0) idle();
        });
    }
  });
}

// Serves `socket` until `idleSeconds` pass without a frame, warming up after its first answer. A
// live server already on the socket wins (this one exits); a stale socket file is replaced. A
// server whose socket file is gone or replaced (two servers replaced the same stale file at once)
// can get no new client: it exits once its frames are answered, instead of idling out of reach.
function listen(socket, idleSeconds) {
  const connections = new Set();
  let identity = null;  // the socket file it made: inode and change time (an inode alone is reused)
  let timer = null;
  const identityOf = (stat) => stat.ino + ':' + stat.ctimeMs;
  const ownsSocket = () => {
    try {
      return identity !== null && identityOf(fs.statSync(socket)) === identity;
    } catch (err) {
      return false;
    }
  };
  const shutdown = () => {  // idle: nothing is in flight
    try {
      if (ownsSocket()) fs.unlinkSync(socket);
    } catch (err) {
      // gone already
    }
    for (const connection of connections) connection.destroy();
    process.exit(0);
  };
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(shutdown, idleSeconds * 1000);
  };
  // Out of reach: stops warming up, lets the answers written so far reach their clients, and exits
  // once they have closed (at most 10 s). It exits by process.exit: closing the listening handle,
  // as a natural exit does, would unlink the path, now another server's socket.
  const retire = () => {
    clearTimeout(timer);
    warmUpsLeft = 0;
    const exitWhenClosed = () => connections.size === 0 && process.exit(0);
    for (const connection of connections) {
      connection.on('close', exitWhenClosed);
      connection.end();
    }
    exitWhenClosed();
    setTimeout(() => process.exit(0), 10000);
  };
  warmUpsLeft = 10;
  let reachable = true;
  onFrameDone = () => (reachable ? touch() : waiting === 0 && retire());
  const checkReachable = () => {
    if (identity === null || !reachable || ownsSocket()) return;
    reachable = false;
    if (waiting === 0) retire();
  };
  setInterval(checkReachable, 1000).unref();
  const start = (attempts) => {
    const server = net.createServer((connection) => {
      touch();
      connections.add(connection);
      connection.on('close', () => connections.delete(connection));
      connection.on('error', () => connection.destroy());
      serve(connection, (text) => connection.write(text), () => connection.end(), true);
    });
    server.on('error', (err) => {
      if (err.code !== 'EADDRINUSE' || attempts === 0) {
        console.error(String((err && err.stack) || err));
        process.exit(1);
      }
      const probe = net.connect(socket);
      probe.on('connect', () => process.exit(0));
      probe.on('error', () => {
        try {
          fs.unlinkSync(socket);
        } catch (unlinkErr) {
          // another server removed it first
        }
        start(attempts - 1);
      });
    });
    server.listen(socket, () => {
      fs.chmodSync(socket, 0o600);
      identity = identityOf(fs.statSync(socket));
      touch();
    });
  };
  start(3);
}

const listenAt = process.argv.indexOf('--listen');
if (listenAt > 0) {
  const idleAt = process.argv.indexOf('--idle-seconds');
  listen(process.argv[listenAt + 1], idleAt > 0 ? Number(process.argv[idleAt + 1]) : 300);
} else {
  serve(process.stdin, (text) => process.stdout.write(text), () => process.exit(2), false);
  process.stdin.on('end', () => queue.then(() => process.exit(0)));
}
