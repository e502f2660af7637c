/**
 * The Lore language server (per-file notes, hovers, code lenses) runs here. Its features come
 * with the per-file knowledge issue; this entry point exists so the bundle layout is fixed.
 */
process.stderr.write('lore language server: not available in this version\n');
process.exitCode = 1;
