/**
 * The role to show next to an author's name. The builder passes `meta_title`, which usually
 * repeats the name ("Maya Lindqvist, MBSR Teacher"); shown after the name, that prefix is dropped.
 */
export function roleAfterName(name: string, role: string): string {
  const prefix = `${name},`;
  return role.startsWith(prefix) ? role.slice(prefix.length).trim() : role;
}
