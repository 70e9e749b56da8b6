'use strict';
// The resident SVG renderer SvgRenderer keeps: `node vl_render_server.js NODE_MODULES`.
// Reads frames "<byte length>\n<Vega-Lite spec>" on stdin and answers each, in order, on stdout
// with "ok <byte length>\n<svg>" or "error <byte length>\n<message>". A spec renders as vega-lite's
// bin/vl2svg renders it (compile, headless View, toSVG), with the SVG clip, gradient and vega-lite
// id counters reset first, so the SVG is the one a fresh vl2svg gives. Exits when stdin closes.
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

function answer(kind, body) {
  process.stdout.write(kind + ' ' + Buffer.byteLength(body) + '\n' + body);
}

let pending = Buffer.alloc(0);
let queue = Promise.resolve();

// Takes every whole frame off `pending` and queues its render behind the earlier ones.
function takeFrames() {
  for (;;) {
    const newline = pending.indexOf(10);
    if (newline < 0) return;
    const length = Number(pending.subarray(0, newline).toString('latin1'));
    if (!Number.isSafeInteger(length) || length < 0) {
      answer('error', 'bad frame header: ' + pending.subarray(0, Math.min(newline, 40)).toString('latin1'));
      process.exit(2);
    }
    if (pending.length < newline + 1 + length) return;
    const text = pending.subarray(newline + 1, newline + 1 + length).toString('utf8');
    pending = pending.subarray(newline + 1 + length);
    queue = queue
      .then(() => render(text))
      .then((svg) => answer('ok', svg), (err) => answer('error', String((err && err.stack) || err)));
  }
}

process.stdin.on('data', (chunk) => {
  pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
  takeFrames();
});
process.stdin.on('end', () => queue.then(() => process.exit(0)));
