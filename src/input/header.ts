/**
 * What an HTTP header value may not hold: control characters other than tab (HTTP allows tab, printable
 * ASCII and bytes above 0x7f). `api -H` refuses them before anything is sent; http.ts checks again.
 */
const CONTROL_BUT_TAB = '\\u0000-\\u0008\\u000a-\\u001f\\u007f';
export const HEADER_CONTROL = new RegExp(`[${CONTROL_BUT_TAB}]`);
