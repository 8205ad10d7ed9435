// The other side of bench section z (scripts/bench/zip-load.ts forks it): a small process that
// loads nothing of the server, as the browser downloading an archive and the disk it is compared
// with know nothing of it. Each message is a request; the answer is its time (ms), its bytes and
// the CPU time it took here (ms).
// - {disk: [paths]}: the files read one after the other as Node reads a file by default (a read
//   stream, 64 KiB at a time) — the baseline;
// - {inPlace: [paths]}: the same into one 1 MiB buffer used again (what reading them can cost at
//   least);
// - {get: url}: an HTTP GET read as a browser's network stack reads, into one buffer used again
//   for every read (a socket's `onread`), nothing kept — its body's bytes.
import fs from 'node:fs';
import net from 'node:net';

async function readDisk(paths) {
  const start = performance.now();
  let got = 0;
  for (const file of paths) {
    for await (const chunk of fs.createReadStream(file)) got += chunk.length;
  }
  return { ms: performance.now() - start, got };
}

async function readDiskInPlace(paths) {
  const start = performance.now();
  const buffer = Buffer.allocUnsafe(1 << 20);
  let got = 0;
  for (const file of paths) {
    const handle = await fs.promises.open(file, 'r');
    try {
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
    } finally {
      await handle.close();
    }
  }
  return { ms: performance.now() - start, got };
}

function readLean(url) {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let received = 0;
    let head = null;
    let status = '';
    const socket = net.connect({
      host: hostname,
      port: Number(port),
      onread: {
        buffer: Buffer.allocUnsafe(1 << 20),
        callback: (length, buffer) => {
          if (head === null) {
            // The reply's head comes whole in the first read (a few hundred bytes).
            status = buffer.toString('latin1', 0, 12);
            head = buffer.subarray(0, length).indexOf('\r\n\r\n') + 4;
          }
          received += length;
          return true;
        },
      },
    });
    socket.on('connect', () => {
      socket.write(
        `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`,
      );
    });
    socket.on('error', reject);
    socket.on('close', () => {
      if (!status.endsWith('200')) reject(new Error(`answered ${status || 'nothing'}`));
      else resolve({ ms: performance.now() - start, got: received - head });
    });
  });
}

process.on('message', (request) => {
  const cpu = process.cpuUsage();
  const run = request.disk
    ? readDisk(request.disk)
    : request.inPlace
      ? readDiskInPlace(request.inPlace)
      : readLean(request.get);
  run.then(
    (reply) => {
      const used = process.cpuUsage(cpu);
      process.send({ ...reply, cpu: (used.user + used.system) / 1000 });
    },
    (error) => process.send({ error: String(error) }),
  );
});
