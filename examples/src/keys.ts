export const NAV = 'nav' as const;

export const KEYS = {
  title: 'home.title',
  subtitle: 'home.subtitle',
} as const;
