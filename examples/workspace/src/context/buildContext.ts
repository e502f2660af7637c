export function buildContext(project: string, digest: string, turn: string): string {
  return [`# Project ${project}`, digest, `---`, turn].join('\n');
}
