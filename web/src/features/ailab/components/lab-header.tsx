import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { paths } from '@/config/paths';
import './ailab.css';

const LAB_PAGES = [
  { to: paths.aiLab, key: 'aiLab', end: true },
  { to: paths.modelService.samples, key: 'modelSamples', end: false },
  { to: paths.modelService.sampleSets, key: 'modelSampleSets', end: false },
  { to: paths.modelService.models, key: 'modelUpload', end: false },
  { to: paths.modelService.applications, key: 'modelApplications', end: false },
  { to: paths.modelService.detections, key: 'modelDetections', end: false },
] as const;

/** The AI lab's pages, one link each, the current one marked. */
export function LabNav() {
  const { t } = useTranslation('nav');
  const { t: tl } = useTranslation('ailab');
  return (
    <nav className="fw-lab-nav" aria-label={tl('nav')}>
      {LAB_PAGES.map((page) => (
        <NavLink key={page.key} to={page.to} end={page.end} className="fw-lab-nav__link">
          {t(`pages.${page.key}`)}
        </NavLink>
      ))}
    </nav>
  );
}

export interface LabHeaderProps {
  title: ReactNode;
  subtitle: ReactNode;
  actions?: ReactNode;
}

/** The title, subtitle and buttons over an AI lab page, and the lab's pages below them. */
export function LabHeader({ title, subtitle, actions }: LabHeaderProps) {
  return (
    <>
      <Flex align="flex-start" justify="space-between" wrap gap={12} className="fw-lab__header">
        <div>
          <Typography.Title level={3} className="fw-page__title fw-lab__title">
            {title}
          </Typography.Title>
          <Typography.Text type="secondary" className="fw-lab__subtitle">
            {subtitle}
          </Typography.Text>
        </div>
        {actions ? (
          <Flex gap={8} wrap>
            {actions}
          </Flex>
        ) : null}
      </Flex>
      <LabNav />
    </>
  );
}
