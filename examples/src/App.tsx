import { useTranslation } from 'react-i18next';
import { KEYS, NAV } from './keys';
import { Header } from './components/Header';

export function App({ section, count }: { section: string; count: number }) {
  const { t } = useTranslation();
  return (
    <main>
      <Header />
      <h1>{t(KEYS.title)}</h1>
      <p>{t(KEYS.subtitle)}</p>
      {/* the active section's label comes from the router: nav.home, nav.settings, ... */}
      <a href="#">{t(`${NAV}.${section}`)}</a>
      <p>{t('cart.items', { count })}</p>
      <footer>{t('footer.copyright')}</footer>
    </main>
  );
}
