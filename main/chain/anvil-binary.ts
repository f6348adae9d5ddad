/** Finds the anvil executable that the npm package @foundry-rs/anvil installed for this platform. */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ChainError } from './errors.js';

const ARCHES: Partial<Record<string, string>> = { x64: 'amd64', arm64: 'arm64' };
const PLATFORMS = new Set(['linux', 'darwin', 'win32']);

/** The platform package's name, e.g. `@foundry-rs/anvil-linux-amd64` (as @foundry-rs/anvil's bin.mjs picks it). */
export function anvilPackageName(platform: string = process.platform, arch: string = process.arch): string | undefined {
  const a = ARCHES[arch];
  if (!PLATFORMS.has(platform) || !a || (platform === 'win32' && a !== 'amd64')) return undefined;
  return `@foundry-rs/anvil-${platform}-${a}`;
}

/** Absolute path of the anvil binary; throws ChainError when this platform has none installed. */
export function resolveAnvilBinary(): string {
  const pkg = anvilPackageName();
  if (!pkg) throw new ChainError(`The local chain (anvil) is not available on ${process.platform}/${process.arch}`);
  const name = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  let path: string;
  try {
    path = createRequire(import.meta.url).resolve(`${pkg}/bin/${name}`);
  } catch (error) {
    throw new ChainError(`The local chain's binary is missing: install ${pkg} (a dependency of @foundry-rs/anvil)`, { cause: error });
  }
  // Inside a packaged app the binary must be unpacked from the asar archive to be executable.
  const unpacked = path.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
  return unpacked !== path && existsSync(unpacked) ? unpacked : path;
}
