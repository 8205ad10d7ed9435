import fs from 'node:fs/promises';

/**
 * What a rendered output is, read from its MP4 boxes in this process: the
 * renderer used to run ffprobe on every output it made, a process start of ≈ 0.1 s (more on a
 * loaded machine) per output for facts that sit in a few hundred bytes of the file's `moov` box.
 * Reads the movie header (`mvhd`: timescale and duration, the container's duration ffprobe
 * reports) and the first video track's sample description (`stsd`: its codec and coded
 * width × height). Only the box headers and those boxes are read, wherever `moov` is in the file
 * (`+faststart` puts it first). Rejects when the file is not an MP4 with a video track; the
 * caller (renderVideo) then falls back to ffprobe.
 */
export interface Mp4Facts {
  /** The first video track's sample entry (`avc1` for H.264). */
  codec: string;
  width: number;
  height: number;
  /** Seconds (`mvhd` duration / timescale). */
  duration: number;
}

/** `moov` of an output is a few KB; a larger one is refused (not what renderVideo writes). */
const MAX_MOOV = 16 * 1024 * 1024;

interface Box {
  type: string;
  /** Offset of its payload (after the header) and its length. */
  start: number;
  length: number;
}

/** The boxes in `buf` from `start` to `end`. */
function boxesOf(buf: Buffer, start: number, end: number): Box[] {
  const boxes: Box[] = [];
  let at = start;
  while (at + 8 <= end) {
    let size = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      if (at + 16 > end) break;
      size = Number(buf.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) {
      size = end - at;
    }
    if (size < header || at + size > end) break;
    boxes.push({ type, start: at + header, length: size - header });
    at += size;
  }
  return boxes;
}

/** The top-level `moov` box of `file`, read by walking the top-level box headers. */
async function readMoov(file: string): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const { size: fileSize } = await handle.stat();
    const head = Buffer.alloc(16);
    let at = 0;
    while (at + 8 <= fileSize) {
      const { bytesRead } = await handle.read(head, 0, 16, at);
      if (bytesRead < 8) break;
      let size = head.readUInt32BE(0);
      const type = head.toString('latin1', 4, 8);
      let header = 8;
      if (size === 1) {
        if (bytesRead < 16) break;
        size = Number(head.readBigUInt64BE(8));
        header = 16;
      } else if (size === 0) {
        size = fileSize - at;
      }
      if (size < header) break;
      if (type === 'moov') {
        const length = size - header;
        if (length > MAX_MOOV || at + size > fileSize) break;
        const moov = Buffer.alloc(length);
        const read = await handle.read(moov, 0, length, at + header);
        if (read.bytesRead !== length) break;
        return moov;
      }
      at += size;
    }
  } finally {
    await handle.close();
  }
  throw new Error(`No moov box in ${file}`);
}

/** The codec and coded size of a track's first sample entry, when it is a video track. */
function videoEntry(buf: Buffer, trak: Box): Omit<Mp4Facts, 'duration'> | null {
  const find = (parent: Box, type: string) =>
    boxesOf(buf, parent.start, parent.start + parent.length).find((b) => b.type === type);
  const mdia = find(trak, 'mdia');
  const hdlr = mdia && find(mdia, 'hdlr');
  // hdlr: version/flags (4), pre_defined (4), handler_type (4).
  if (
    !hdlr ||
    hdlr.length < 12 ||
    buf.toString('latin1', hdlr.start + 8, hdlr.start + 12) !== 'vide'
  )
    return null;
  const minf = find(mdia, 'minf');
  const stbl = minf && find(minf, 'stbl');
  const stsd = stbl && find(stbl, 'stsd');
  // stsd: version/flags (4), entry_count (4), then the first sample entry (a box): reserved (6),
  // data_reference_index (2), pre_defined (2), reserved (2), pre_defined (12), width (2),
  // height (2).
  if (!stsd || stsd.length < 8 + 8 + 28) return null;
  const entry = stsd.start + 8;
  return {
    codec: buf.toString('latin1', entry + 4, entry + 8),
    width: buf.readUInt16BE(entry + 8 + 24),
    height: buf.readUInt16BE(entry + 8 + 26),
  };
}

/** The facts of an MP4 file (see Mp4Facts); rejects when it has no movie header or video track. */
export async function readMp4Facts(file: string): Promise<Mp4Facts> {
  const moov = await readMoov(file);
  const children = boxesOf(moov, 0, moov.length);
  const mvhd = children.find((b) => b.type === 'mvhd');
  if (!mvhd || mvhd.length < 20) throw new Error(`No movie header in ${file}`);
  // mvhd version 0: creation (4), modification (4), timescale (4), duration (4);
  // version 1: creation (8), modification (8), timescale (4), duration (8).
  const version = moov.readUInt8(mvhd.start);
  let timescale: number;
  let units: number;
  if (version === 1) {
    if (mvhd.length < 32) throw new Error(`Short movie header in ${file}`);
    timescale = moov.readUInt32BE(mvhd.start + 20);
    units = Number(moov.readBigUInt64BE(mvhd.start + 24));
  } else {
    timescale = moov.readUInt32BE(mvhd.start + 12);
    units = moov.readUInt32BE(mvhd.start + 16);
  }
  if (!(timescale > 0)) throw new Error(`No timescale in ${file}`);
  for (const trak of children.filter((b) => b.type === 'trak')) {
    const video = videoEntry(moov, trak);
    if (video && video.width > 0 && video.height > 0) {
      return { ...video, duration: units / timescale };
    }
  }
  throw new Error(`No video track in ${file}`);
}
