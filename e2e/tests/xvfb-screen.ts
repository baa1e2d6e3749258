import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What an Xvfb display shows, read from the framebuffer file Xvfb keeps with `-fbdir <dir>`
 * (`<dir>/Xvfb_screen0`, an XWD image it draws into): the reference a remote screen is
 * compared with. The header's fields are big-endian CARD32s (Xvfb swaps them on little-endian
 * hosts); the pixels are in the order `byte_order` names, `bits_per_pixel` wide.
 */
export type Area = { x: number; y: number; width: number; height: number };

/** The RGB bytes of `area` of screen 0, row after row (3 bytes a pixel). */
export function xvfbArea(fbdir: string, area: Area): Uint8Array {
  const file = readFileSync(path.join(fbdir, 'Xvfb_screen0'));
  const field = (i: number) => file.readUInt32BE(i * 4);
  const [headerSize, , , depth, width, height, , byteOrder, , , , bitsPerPixel, bytesPerLine] = [
    field(0),
    field(1),
    field(2),
    field(3),
    field(4),
    field(5),
    field(6),
    field(7),
    field(8),
    field(9),
    field(10),
    field(11),
    field(12),
  ];
  const [redMask, greenMask, blueMask] = [field(14), field(15), field(16)];
  const colours = field(19);
  if (depth !== 24 || bitsPerPixel !== 32)
    throw new Error(`expected a 24-bit screen in 32-bit pixels, not ${depth}/${bitsPerPixel}`);
  if (area.x + area.width > width || area.y + area.height > height) throw new Error('the area leaves the screen');
  // Pixels follow the header (with the window's name) and the colour map (12 bytes an entry).
  const pixels = headerSize + colours * 12;
  const shift = (mask: number) => Math.log2(mask & -mask);
  const out = new Uint8Array(area.width * area.height * 3);
  for (let y = 0; y < area.height; y++) {
    for (let x = 0; x < area.width; x++) {
      const at = pixels + (area.y + y) * bytesPerLine + (area.x + x) * 4;
      // byte_order 0 is LSBFirst.
      const value = byteOrder === 0 ? file.readUInt32LE(at) : file.readUInt32BE(at);
      const o = (y * area.width + x) * 3;
      out[o] = (value & redMask) >>> shift(redMask);
      out[o + 1] = (value & greenMask) >>> shift(greenMask);
      out[o + 2] = (value & blueMask) >>> shift(blueMask);
    }
  }
  return out;
}

/**
 * How alike two RGB images of one area are: the share of pixels whose channels all differ by
 * at most `tolerance` (a remote screen's encoding may round colours), and how many pixels of
 * `reference` are dark (text on a light window), so that a blank area cannot pass as alike.
 */
export function likeness(reference: Uint8Array, shown: Uint8Array, tolerance = 24): { same: number; dark: number } {
  if (reference.length !== shown.length) throw new Error('the images differ in size');
  let same = 0;
  let dark = 0;
  for (let i = 0; i < reference.length; i += 3) {
    if (reference[i]! + reference[i + 1]! + reference[i + 2]! < 150) dark++;
    if (
      Math.abs(reference[i]! - shown[i]!) <= tolerance &&
      Math.abs(reference[i + 1]! - shown[i + 1]!) <= tolerance &&
      Math.abs(reference[i + 2]! - shown[i + 2]!) <= tolerance
    )
      same++;
  }
  return { same: same / (reference.length / 3), dark };
}
