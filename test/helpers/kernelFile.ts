/**
 * What a test compares to prove the native kernel was left alone: the bytes (SHA-256) and the
 * modification time of build/Release/wflo_kernel.node, and the list of what build/ holds (a
 * half-emptied build/ keeps no kernel; a rebuild rewrites the file even with the same bytes).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface KernelFile {
  sha256: string;
  mtimeMs: number;
  size: number;
  build: string[];
}

export function kernelFile(repoDir: string): KernelFile {
  const file = path.join(repoDir, 'build', 'Release', 'wflo_kernel.node');
  const stat = fs.statSync(file);
  const build = (fs.readdirSync(path.join(repoDir, 'build'), { recursive: true }) as string[]).map(String).sort();
  return { sha256: createHash('sha256').update(fs.readFileSync(file)).digest('hex'), mtimeMs: stat.mtimeMs, size: stat.size, build };
}
