'use strict';
module.exports = require('node:fs').readFileSync(require('node:path').join(__dirname, 'llhttp.wasm'));
