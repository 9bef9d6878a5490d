/** The compressed formats a file arrives in, by their magic bytes, with the command that decompresses to stdout. */
export interface Compression {
  name: string;
  cat: string;
  magic: readonly number[];
}

const COMPRESSED: readonly Compression[] = [
  { name: 'gzip', cat: 'gunzip -c', magic: [0x1f, 0x8b, 0x08] },
  { name: 'bzip2', cat: 'bzip2 -dc', magic: [0x42, 0x5a, 0x68] }, // "BZh", then a block size digit
  { name: 'xz', cat: 'xz -dc', magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { name: 'zstd', cat: 'zstd -dc', magic: [0x28, 0xb5, 0x2f, 0xfd] },
];

/** The compression the first bytes of a file show, if any. */
export function compressionOf(sample: Uint8Array): Compression | undefined {
  return COMPRESSED.find((c) => sample.length >= c.magic.length && c.magic.every((b, i) => sample[i] === b) && (c.name !== 'bzip2' || (sample[3]! >= 0x31 && sample[3]! <= 0x39)));
}
