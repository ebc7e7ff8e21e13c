import { Trans, useTranslation } from 'react-i18next';

export function Header() {
  const { t } = useTranslation('common', { keyPrefix: 'header' });
  return (
    <header>
      <span>{t('greeting', { name: 'Ada' })}</span>
      <Trans i18nKey="header.welcome" />
      <button>{t('signOut')}</button>
    </header>
  );
}
