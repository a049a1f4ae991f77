import type { ContentFile } from './format-v2.ts';

interface ManifestView {
  name: string;
  package_version: string;
  description: string;
  package_type: string[];
  author: string | null;
  license: string | null;
  created_at: string;
  generator: string;
  contents: ContentFile[];
  stats: { total_nodes: number; total_edges: number; total_sources: number };
  source_stats: { total_chunks: number } | null;
}

/** `README.txt`, generated from the manifest (part of the CCX 2.0 layout); nothing reads it back. */
export function readme(manifest: ManifestView): string {
  const rule = '='.repeat(80);
  const lines = [
    rule,
    `CCX Package: ${manifest.name}`,
    `Version: ${manifest.package_version}`,
    rule,
    '',
    'DESCRIPTION',
    manifest.description,
    '',
    'METADATA',
    'Format Version: CCX 2.0',
    `Package Type: ${manifest.package_type.join(', ')}`,
    `Author: ${manifest.author ?? 'unknown'}`,
    `License: ${manifest.license ?? 'unspecified'}`,
    `Created: ${manifest.created_at.slice(0, 19)} UTC`,
    `Generator: ${manifest.generator}`,
    '',
    'CONTENTS',
    ...manifest.contents.flatMap((file) => [
      `  ${file.path}`,
      `    Type: ${file.type}`,
      `    Size: ${(file.file_size_bytes / 1024).toFixed(2)} KB`,
      `    Media Type: ${file.media_type}`,
      `    SHA-256: ${file.checksum_sha256.slice(0, 16)}...`,
    ]),
    '',
    'STATISTICS',
    `  Nodes: ${manifest.stats.total_nodes}`,
    `  Edges: ${manifest.stats.total_edges}`,
    `  Sources: ${manifest.stats.total_sources}`,
    ...(manifest.source_stats ? [`  Chunks: ${manifest.source_stats.total_chunks}`] : []),
    '',
    'End of README',
  ];
  return lines.join('\n');
}
