/**
 * Just enough of PNG to look at a screenshot in a test: the size, and which colours its pixels have
 * (8-bit RGB or RGBA, not interlaced: what Chromium writes). No dependency.
 */
import { inflateSync } from 'node:zlib';

export interface Image {
  width: number;
  height: number;
  /** RGB of the pixel at (x, y). */
  pixel(x: number, y: number): [number, number, number];
  /** The pixels, row after row, `channels` bytes each (RGB or RGBA). */
  pixels: Uint8Array;
  channels: number;
}

export function readPng(data: Buffer): Image {
  if (data.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (offset < data.length) {
    const length = data.readUInt32BE(offset);
    const type = data.toString('latin1', offset + 4, offset + 8);
    const body = data.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, color, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || interlace !== 0 || (color !== 2 && color !== 6)) throw new Error('unsupported PNG');
      channels = color === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(body);
    offset += 12 + length;
  }
  const raw = new Uint8Array(inflateSync(Buffer.concat(idat)));
  const stride = width * channels;
  if (raw.length < (stride + 1) * height) throw new Error('truncated PNG');
  const pixels = new Uint8Array(stride * height);
  // Undoes each row's filter (PNG spec, 9.2) into `pixels`, on typed arrays and without `??`: a
  // tall screenshot has tens of millions of bytes.
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const from = y * (stride + 1) + 1;
    const row = y * stride;
    const prev = row - stride;
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? (pixels[row + x - channels] as number) : 0;
      const up = y > 0 ? (pixels[prev + x] as number) : 0;
      let predicted = 0;
      if (filter === 1) predicted = left;
      else if (filter === 2) predicted = up;
      else if (filter === 3) predicted = (left + up) >> 1;
      else if (filter === 4) {
        const upLeft = y > 0 && x >= channels ? (pixels[prev + x - channels] as number) : 0;
        const p = left + up - upLeft;
        const pa = Math.abs(p - left);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - upLeft);
        predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      pixels[row + x] = ((raw[from + x] as number) + predicted) & 0xff;
    }
  }
  return {
    width,
    height,
    pixel: (x, y) => {
      const i = y * stride + x * channels;
      return [pixels[i] ?? 0, pixels[i + 1] ?? 0, pixels[i + 2] ?? 0];
    },
    pixels,
    channels,
  };
}

/** How many pixels of `image` are within `tolerance` of the colour `hex` (#rrggbb). */
export function countColour(image: Image, hex: string, tolerance = 12): number {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [
    number,
    number,
    number,
  ];
  const near = (value: number, target: number) => Math.abs(value - target) <= tolerance;
  const { pixels, channels } = image;
  let count = 0;
  // Straight over the decoded bytes: no array per pixel (a tall screenshot has millions of them).
  for (let i = 0; i < pixels.length; i += channels)
    if (near(pixels[i] as number, r) && near(pixels[i + 1] as number, g) && near(pixels[i + 2] as number, b))
      count++;
  return count;
}
