/** The portal's sections, in drawer order. */
export const NAVIGATION = [
  { href: '/', label: 'Overview', icon: 'home' },
  { href: '/catalog', label: 'Catalog', icon: 'catalog' },
  { href: '/resources', label: 'Resources', icon: 'resources' },
  { href: '/applications', label: 'Applications', icon: 'applications' },
  { href: '/settings', label: 'Settings', icon: 'settings' },
] as const;

export type NavigationIcon = (typeof NAVIGATION)[number]['icon'];

/** A section is current on its own path and everything below it ("/" only on itself). */
export function isCurrentSection(href: string, pathname: string): boolean {
  return href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
}
