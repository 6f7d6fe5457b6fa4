/**
 * An npm registry on 127.0.0.1 that knows exactly the packages of a package-lock.json, at their
 * locked versions, serving the tarballs from npm's own cache (by the lock's integrity). With it
 * an install without a lockfile (`npm install <git URL>`, which must resolve lessons' dependency
 * ranges from packuments) runs offline: npm's cache holds tarballs, never packuments.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

interface LockEntry {
  version?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, unknown>;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  license?: string;
}

export interface LockRegistry {
  url: string;
  close(): Promise<void>;
}

/** The file of npm's content cache that holds the bytes of `integrity` (cacache's layout). */
function cachedContent(cacheDir: string, integrity: string): string {
  const [algorithm, digest] = integrity.split(' ')[0]!.split('-') as [string, string];
  const hex = Buffer.from(digest, 'base64').toString('hex');
  return path.join(cacheDir, '_cacache', 'content-v2', algorithm, hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
}

function packuments(lockFile: string, base: string): Map<string, { versions: Record<string, unknown>; tarballs: Map<string, string> }> {
  const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8')) as { packages: Record<string, LockEntry> };
  const byName = new Map<string, { versions: Record<string, unknown>; tarballs: Map<string, string> }>();
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (key === '' || !entry.version || !entry.integrity) continue;
    const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const file = `${name.split('/').pop()}-${entry.version}.tgz`;
    const item = byName.get(name) ?? { versions: {}, tarballs: new Map<string, string>() };
    const { version, integrity, dependencies, optionalDependencies, peerDependencies, peerDependenciesMeta, bin, engines, os, cpu, license } = entry;
    item.versions[version] = {
      name,
      version,
      ...(dependencies ? { dependencies } : {}),
      ...(optionalDependencies ? { optionalDependencies } : {}),
      ...(peerDependencies ? { peerDependencies } : {}),
      ...(peerDependenciesMeta ? { peerDependenciesMeta } : {}),
      ...(bin ? { bin } : {}),
      ...(engines ? { engines } : {}),
      ...(os ? { os } : {}),
      ...(cpu ? { cpu } : {}),
      ...(license ? { license } : {}),
      dist: { tarball: `${base}/${name}/-/${file}`, integrity },
    };
    item.tarballs.set(file, integrity);
    byName.set(name, item);
  }
  return byName;
}

/** Starts the registry for `lockFile`, reading tarballs from the npm cache at `cacheDir`. */
export async function startLockRegistry(lockFile: string, cacheDir: string): Promise<LockRegistry> {
  let known = new Map<string, { versions: Record<string, unknown>; tarballs: Map<string, string> }>();
  const server = http.createServer((request, response) => {
    const url = decodeURIComponent((request.url ?? '/').split('?')[0]!).slice(1);
    const tarball = url.match(/^(.+)\/-\/([^/]+\.tgz)$/);
    const name = tarball ? tarball[1]! : url;
    const item = known.get(name);
    const integrity = tarball ? item?.tarballs.get(tarball[2]!) : undefined;
    if (tarball && integrity && fs.existsSync(cachedContent(cacheDir, integrity))) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      fs.createReadStream(cachedContent(cacheDir, integrity)).pipe(response);
      return;
    }
    if (!tarball && item) {
      const versions = Object.keys(item.versions);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ name, 'dist-tags': { latest: versions[versions.length - 1] }, versions: item.versions }));
      return;
    }
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: 'not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  known = packuments(lockFile, url);
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
