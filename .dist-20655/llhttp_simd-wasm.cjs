'use strict';
const bytes = require('node:fs').readFileSync(require('node:path').join(__dirname, 'llhttp_simd.wasm'));
let compiled;
module.exports = {
  compileEarly() {
    WebAssembly.compile(bytes).then((module) => (compiled = module), () => {});
  },
  // Compiled here if the early compile has not finished (or failed: then this throws, as undici expects).
  module: () => compiled ?? new WebAssembly.Module(bytes),
};
