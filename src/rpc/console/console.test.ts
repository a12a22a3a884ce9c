import { spawn } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toHex } from '../../core/bytes';
import { keccak256Bytes } from '../../core/hash';
import { type FixtureSidechainPort, createFixtureSidechainPort } from '../testing/sidechainPort';
import { runConsole } from './consoleClient';
import { MAX_CONSOLE_LINE_BYTES, formatConsoleValue } from './consoleFormat';
import { type ConsoleServer, createConsoleServer } from './consoleServer';
import { parseSetHead } from './setHeadExpression';

const PUB_X = '11'.repeat(32);
const PUB_Y = '22'.repeat(32);
const ENODE = `enode://${PUB_X}${PUB_Y}@127.0.0.1:30303`;
const SYNCING = { startingBlock: 0n, currentBlock: 250n, highestBlock: 1000n };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lockstep-console-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
/** Where the devnet puts it: <home>/sidechain/lockstep-sidechain.ipc. */
const freshSocketPath = (): string => join(dir, `home${++counter}`, 'sidechain', 'lockstep-sidechain.ipc');

const syncingPort = (): FixtureSidechainPort =>
  createFixtureSidechainPort({ viewExtras: { peerCount: 7, syncing: SYNCING, nodeKey: `0x04${PUB_X}${PUB_Y}` } });

/** `lockstep console --exec EXPR`: its exit code and what it printed. */
async function execConsole(socketPath: string, expr: string): Promise<{ code: number; out: string }> {
  const output = new PassThrough();
  let out = '';
  output.setEncoding('utf8');
  output.on('data', (c: string) => (out += c));
  const code = await runConsole({ socketPath, input: new PassThrough(), output, exec: expr });
  return { code, out };
}

/** A raw protocol client: send lines, read answer lines. */
class RawClient {
  private buffered = '';
  private lines: string[] = [];
  private waiters: Array<() => void> = [];
  closed = false;

  private constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => {
      this.buffered += c;
      for (let nl = this.buffered.indexOf('\n'); nl >= 0; nl = this.buffered.indexOf('\n')) {
        this.lines.push(this.buffered.slice(0, nl));
        this.buffered = this.buffered.slice(nl + 1);
      }
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => {});
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  static open(path: string): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const s = connect(path);
      s.once('connect', () => resolve(new RawClient(s)));
      s.once('error', reject);
    });
  }

  async read(n: number): Promise<unknown[]> {
    while (this.lines.length < n && !this.closed) await new Promise<void>((r) => this.waiters.push(r));
    return this.lines.splice(0, n).map((l) => JSON.parse(l) as unknown);
  }

  async untilClosed(): Promise<void> {
    while (!this.closed) await new Promise<void>((r) => this.waiters.push(r));
  }
}

describe('console: the spec expressions through `lockstep console --exec`', () => {
  let port: FixtureSidechainPort;
  let server: ConsoleServer;
  let socketPath: string;
  beforeEach(async () => {
    port = syncingPort();
    socketPath = freshSocketPath();
    server = createConsoleServer(port, socketPath);
    await server.listen();
  });
  afterEach(async () => {
    await server.close();
  });

  it('creates the socket owner-only, and removes it on close', async () => {
    const st = lstatSync(socketPath);
    expect(st.isSocket()).toBe(true);
    expect(st.mode & 0o777).toBe(0o600);
    await server.close();
    expect(() => lstatSync(socketPath)).toThrow(/ENOENT/);
    await server.listen();
  });

  it("admin.peers.length, eth.blockNumber, eth.getBlock('latest').number print bare numbers", async () => {
    expect(await execConsole(socketPath, 'admin.peers.length')).toEqual({ code: 0, out: '7\n' });
    expect(await execConsole(socketPath, 'eth.blockNumber')).toEqual({ code: 0, out: '14\n' });
    expect(await execConsole(socketPath, "eth.getBlock('latest').number")).toEqual({ code: 0, out: '14\n' });
    expect(await execConsole(socketPath, 'eth.getBlock("latest").number')).toEqual({ code: 0, out: '14\n' });
  });

  it('admin.nodeInfo prints an object with sorted keys; admin.nodeInfo.enode a quoted string', async () => {
    expect(await execConsole(socketPath, 'admin.nodeInfo.enode')).toEqual({ code: 0, out: `"${ENODE}"\n` });
    const info = await execConsole(socketPath, 'admin.nodeInfo');
    expect(info.code).toBe(0);
    const id = toHex(keccak256Bytes(`0x${PUB_X}${PUB_Y}`)).slice(2);
    const head = port.chain.head();
    expect(info.out).toBe(
      [
        '{',
        `  enode: "${ENODE}",`,
        `  id: "${id}",`,
        '  ip: "127.0.0.1",',
        '  listenAddr: "[::]:30303",',
        '  name: "sidechain/v0.1.0-lockstep",',
        '  ports: {',
        '    discovery: 30303,',
        '    listener: 30303',
        '  },',
        '  protocols: {',
        '    eth: {',
        `      difficulty: ${head.td},`,
        `      genesis: "${port.chain.genesis.block.hash}",`,
        `      head: "${head.block.hash}",`,
        '      network: 15001',
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('eth.syncing, blocks behind and progress', async () => {
    const syncing = await execConsole(socketPath, 'eth.syncing');
    expect(syncing.code).toBe(0);
    expect(syncing.out).toMatch(/^\{\n {2}currentBlock: 250,\n {2}healedBytecodeBytes: "0x0",\n/);
    expect(syncing.out).toMatch(/\n {2}highestBlock: 1000,\n/);
    expect(syncing.out.endsWith('  txIndexRemainingBlocks: "0x0"\n}\n')).toBe(true);
    expect(await execConsole(socketPath, 'eth.syncing.highestBlock - eth.syncing.currentBlock')).toEqual({
      code: 0,
      out: '750\n',
    });
    expect(await execConsole(socketPath, 'eth.syncing.currentBlock * 100 / eth.syncing.highestBlock')).toEqual({
      code: 0,
      out: '25\n',
    });
    // A node that is not syncing: false, and the arithmetic on it is NaN, as in geth's console.
    port.viewExtras = { ...port.viewExtras, syncing: null };
    expect(await execConsole(socketPath, 'eth.syncing')).toEqual({ code: 0, out: 'false\n' });
    expect(await execConsole(socketPath, 'eth.syncing.highestBlock - eth.syncing.currentBlock')).toEqual({
      code: 0,
      out: 'NaN\n',
    });
  });

  it("debug.setHead('0x…') rewinds the node's chain and prints null", async () => {
    expect(await execConsole(socketPath, "debug.setHead('0xa')")).toEqual({ code: 0, out: 'null\n' });
    expect(port.setHeadCalls).toEqual([10n]);
    expect(await execConsole(socketPath, 'eth.blockNumber')).toEqual({ code: 0, out: '10\n' });
    expect(await execConsole(socketPath, 'debug.setHead("0x8")')).toEqual({ code: 0, out: 'null\n' });
    expect(await execConsole(socketPath, 'debug.setHead(0x6);')).toEqual({ code: 0, out: 'null\n' });
    expect(port.setHeadCalls).toEqual([10n, 8n, 6n]);
    expect(await execConsole(socketPath, "eth.getBlock('latest').number")).toEqual({ code: 0, out: '6\n' });
  });

  it('errors print as errors with exit code 1, and change nothing', async () => {
    expect(await execConsole(socketPath, "debug.setHead('0x63')")).toEqual({
      code: 1,
      out: 'Error: cannot set head to block 99: the head is block 14\n',
    });
    expect(await execConsole(socketPath, "debug.setHead('0x01')")).toEqual({
      code: 1,
      out: 'Error: invalid argument 0: hex number with leading zero digits\n',
    });
    expect(await execConsole(socketPath, "debug.setHead('10')")).toEqual({
      code: 1,
      out: 'Error: invalid argument 0: hex string without 0x prefix\n',
    });
    const decimal = await execConsole(socketPath, 'debug.setHead(10)');
    expect(decimal.code).toBe(1);
    expect(decimal.out).toMatch(
      /cannot unmarshal non-string into Go value of type hexutil\.Uint64.*debug\.setHead\('0xa'\)/,
    );
    const garbage = await execConsole(socketPath, 'eth.foo');
    expect(garbage.code).toBe(1);
    expect(garbage.out).toMatch(/^Error: unsupported console expression "eth\.foo"; supported: admin\.peers\.length/);
    expect((await execConsole(socketPath, "eth.getBlock('latest).number")).out).toMatch(
      /^SyntaxError: unterminated string/,
    );
    expect(port.setHeadCalls).toEqual([99n]);
    expect(port.chain.head().block.header.number).toBe(14n);
  });
});

describe('console: the line protocol', () => {
  let port: FixtureSidechainPort;
  let server: ConsoleServer;
  let socketPath: string;
  beforeEach(async () => {
    port = syncingPort();
    socketPath = freshSocketPath();
    server = createConsoleServer(port, socketPath);
    await server.listen();
  });
  afterEach(async () => {
    await server.close();
  });

  it('one JSON answer per line, in order; a garbage line answers an error and the socket keeps working', async () => {
    const c = await RawClient.open(socketPath);
    c.socket.write('eth.blockNumber\n#garbage\r\neth.syncing.currentBlock * 100 / eth.syncing.highestBlock\n\n');
    const [a, b, d, e] = await c.read(4);
    expect(a).toEqual({ ok: true, value: 14, display: '14' });
    expect(b).toMatchObject({ ok: false, error: expect.stringMatching(/SyntaxError: unexpected character/) });
    expect(d).toEqual({ ok: true, value: 25, display: '25' });
    expect(e).toEqual({ ok: false, error: 'empty expression' });
    // Split across writes, and a last line without a newline before the end.
    c.socket.write('admin.peers');
    c.socket.write('.length\nadmin.nodeInfo.enode');
    c.socket.end();
    expect(await c.read(2)).toEqual([
      { ok: true, value: 7, display: '7' },
      { ok: true, value: ENODE, display: `"${ENODE}"` },
    ]);
    await c.untilClosed();
  });

  it('a read after a setHead on the same connection sees the rewound chain; NaN travels as null with its display', async () => {
    const c = await RawClient.open(socketPath);
    c.socket.write("eth.blockNumber\ndebug.setHead('0x4')\neth.blockNumber\n");
    expect(await c.read(3)).toEqual([
      { ok: true, value: 14, display: '14' },
      { ok: true, value: null, display: 'null' },
      { ok: true, value: 4, display: '4' },
    ]);
    port.viewExtras = { ...port.viewExtras, syncing: null };
    c.socket.write('eth.syncing.currentBlock * 100 / eth.syncing.highestBlock\n');
    expect(await c.read(1)).toEqual([{ ok: true, value: null, display: 'NaN' }]);
    c.socket.destroy();
  });

  it(`a line over ${MAX_CONSOLE_LINE_BYTES} bytes is an error and closes that connection only`, async () => {
    const other = await RawClient.open(socketPath);
    const c = await RawClient.open(socketPath);
    c.socket.write('eth.blockNumber\n');
    c.socket.write('x'.repeat(MAX_CONSOLE_LINE_BYTES + 1));
    expect(await c.read(2)).toEqual([
      { ok: true, value: 14, display: '14' },
      { ok: false, error: `line too long: the console reads at most ${MAX_CONSOLE_LINE_BYTES} bytes per line` },
    ]);
    await c.untilClosed();
    // Exactly the limit is still a line (and here an unsupported expression).
    other.socket.write(`${' '.repeat(MAX_CONSOLE_LINE_BYTES - 'eth.blockNumber'.length)}eth.blockNumber\n`);
    expect(await other.read(1)).toEqual([{ ok: true, value: 14, display: '14' }]);
    other.socket.destroy();
  });

  it('a client that disconnects mid-answer does not disturb the server', async () => {
    const c = await RawClient.open(socketPath);
    c.socket.write("debug.setHead('0x9')\neth.blockNumber\n");
    c.socket.destroy();
    expect(await execConsole(socketPath, 'admin.peers.length')).toEqual({ code: 0, out: '7\n' });
  });

  it('a node failure is an error answer, not a crash', async () => {
    const path = freshSocketPath();
    const s2 = createConsoleServer(
      {
        view: () => {
          throw new Error('node is gone');
        },
        setHead: () => Promise.reject(new Error('journal closed')),
      },
      path,
    );
    await s2.listen();
    try {
      expect(await execConsole(path, 'eth.blockNumber')).toEqual({
        code: 1,
        out: 'Error: console failure: node is gone\n',
      });
      expect(await execConsole(path, "debug.setHead('0x1')")).toEqual({
        code: 1,
        out: 'Error: console failure: journal closed\n',
      });
    } finally {
      await s2.close();
    }
  });
});

describe('console: the interactive prompt', () => {
  let port: FixtureSidechainPort;
  let server: ConsoleServer;
  let socketPath: string;
  beforeAll(async () => {
    port = syncingPort();
    socketPath = freshSocketPath();
    server = createConsoleServer(port, socketPath);
    await server.listen();
  });
  afterAll(async () => {
    await server.close();
  });

  async function session(lines: string[], end: boolean): Promise<{ code: number; out: string }> {
    const input = new PassThrough();
    const output = new PassThrough();
    let out = '';
    output.setEncoding('utf8');
    output.on('data', (c: string) => (out += c));
    const done = runConsole({ socketPath, input, output });
    for (const l of lines) input.write(`${l}\n`);
    if (end) input.end();
    return { code: await done, out };
  }

  it('prompts with "> ", answers each line, and stops at exit', async () => {
    const { code, out } = await session(
      ['eth.blockNumber', '', 'garbage(', 'admin.peers.length', 'exit', 'eth.blockNumber'],
      false,
    );
    expect(code).toBe(0);
    // The blank line only re-prompts; the garbage line is an error; nothing after exit runs.
    const lines = out.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('> 14');
    expect(lines[1]).toMatch(/^> > Error: unsupported console expression "garbage\("; supported: /);
    expect(lines.slice(2)).toEqual(['> 7', '> ']);
  });

  it('ends at end of input (Ctrl-D) with exit code 0', async () => {
    const { code, out } = await session(['eth.syncing.highestBlock - eth.syncing.currentBlock'], true);
    expect(code).toBe(0);
    expect(out).toBe('> 750\n> ');
  });
});

describe('console: attaching where no node is', () => {
  const message = (path: string) => `no sidechain console at ${path}: is \`lockstep node start\` running?\n`;

  it('a missing socket is a clear error with exit code 1', async () => {
    const path = join(dir, 'nowhere', 'sidechain', 'lockstep-sidechain.ipc');
    expect(await execConsole(path, 'eth.blockNumber')).toEqual({ code: 1, out: message(path) });
    const input = new PassThrough();
    const output = new PassThrough();
    let out = '';
    output.setEncoding('utf8');
    output.on('data', (c: string) => (out += c));
    expect(await runConsole({ socketPath: path, input, output })).toBe(1);
    expect(out).toBe(message(path));
  });

  it('a stale socket left by a killed node: the client says no node runs; a new server replaces it', async () => {
    const path = freshSocketPath();
    mkdirSync(join(path, '..'), { recursive: true });
    // A process that listens and is killed leaves its socket file behind.
    const child = spawn(
      process.execPath,
      ['-e', "require('net').createServer().listen(process.argv[1], () => process.send('up'))", path],
      { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] },
    );
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('error', reject);
    });
    // While it lives, a second server refuses to take the path over.
    const rival = createConsoleServer(syncingPort(), path);
    await expect(rival.listen()).rejects.toThrow(/another process is serving it/);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(lstatSync(path).isSocket()).toBe(true);
    expect(await execConsole(path, 'eth.blockNumber')).toEqual({ code: 1, out: message(path) });

    const s = createConsoleServer(syncingPort(), path);
    await s.listen();
    try {
      expect(await execConsole(path, 'eth.blockNumber')).toEqual({ code: 0, out: '14\n' });
    } finally {
      await s.close();
    }
  });

  it('a path that is not a socket is left alone', async () => {
    const path = freshSocketPath();
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, 'not a socket');
    await expect(createConsoleServer(syncingPort(), path).listen()).rejects.toThrow(/exists and is not a socket/);
    expect(lstatSync(path).isFile()).toBe(true);
    expect(await execConsole(path, 'eth.blockNumber')).toEqual({ code: 1, out: message(path) });
  });
});

describe('console: printing like geth and parsing setHead', () => {
  it('prints values as geth does', () => {
    expect(formatConsoleValue(42)).toBe('42');
    expect(formatConsoleValue(12345678901234567890n)).toBe('12345678901234567890');
    expect(formatConsoleValue(false)).toBe('false');
    expect(formatConsoleValue(null)).toBe('null');
    expect(formatConsoleValue(NaN)).toBe('NaN');
    expect(formatConsoleValue('a"b')).toBe('"a\\"b"');
    expect(formatConsoleValue([])).toBe('[]');
    expect(formatConsoleValue({})).toBe('{}');
    expect(formatConsoleValue([1, 'x', [2]])).toBe('[1, "x", [2]]');
    expect(formatConsoleValue({ b: 1, a: { c: [] }, _hidden: 1 })).toBe('{\n  a: {\n    c: []\n  },\n  b: 1\n}');
    // An object inside an array closes one level out; past three levels it is abbreviated.
    expect(formatConsoleValue([{ a: 1 }, { b: 2 }])).toBe('[{\n    a: 1\n}, {\n    b: 2\n}]');
    expect(formatConsoleValue({ a: { b: { c: { d: { e: 1 } } } } })).toBe(
      '{\n  a: {\n    b: {\n      c: {\n        d: {...}\n      }\n    }\n  }\n}',
    );
  });

  it('parses debug.setHead in its accepted forms only', () => {
    expect(parseSetHead("debug.setHead('0x3e8')")).toEqual({ kind: 'setHead', block: 1000n });
    expect(parseSetHead(' debug . setHead ( "0x0" ) ; ')).toEqual({ kind: 'setHead', block: 0n });
    expect(parseSetHead('debug.setHead(0X3E8)')).toEqual({ kind: 'setHead', block: 1000n });
    expect(parseSetHead('debug.setHead(0x10000000000000000)')).toEqual({
      kind: 'invalid',
      error: 'invalid argument 0: hex number > 64 bits',
    });
    expect(parseSetHead("debug.setHead('0x10000000000000000')")).toEqual({
      kind: 'invalid',
      error: 'invalid argument 0: hex number > 64 bits',
    });
    expect(parseSetHead('debug.setHead()')).toEqual({
      kind: 'invalid',
      error: 'missing value for required argument 0',
    });
    expect(parseSetHead("debug.setHead('0x1', 2)").kind).toBe('invalid');
    expect(parseSetHead('debug.setHead').kind).toBe('invalid');
    expect(parseSetHead('debug.setHeadX(1)')).toEqual({ kind: 'other' });
    expect(parseSetHead('eth.blockNumber')).toEqual({ kind: 'other' });
  });
});
