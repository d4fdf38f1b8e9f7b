import {
  AlertOutlined,
  ApiOutlined,
  AppstoreOutlined,
  BulbOutlined,
  CloudOutlined,
  ClusterOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  ExperimentOutlined,
  FileTextOutlined,
  FundOutlined,
  HistoryOutlined,
  MessageOutlined,
  NodeIndexOutlined,
  RobotOutlined,
  SendOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import { paths } from '@/config/paths';
import { UnreadMenuIcon } from '@/features/events/components/unread-badge';
import type { Resources } from '@/locales';

type MainKey = keyof Resources['nav']['main'];
type IntegrationKey = Exclude<keyof Resources['nav']['integration'], 'title'>;

interface MenuEntry<Key> {
  key: Key;
  to: string;
  icon: ReactNode;
  /** Paths that belong to this entry besides `to`. */
  also?: string[];
}

export const mainMenu: MenuEntry<MainKey>[] = [
  { key: 'device', to: paths.devices, icon: <ClusterOutlined />, also: ['/apps/poi', paths.legacyDeviceDetail] },
  { key: 'event', to: paths.events, icon: <UnreadMenuIcon icon={<AlertOutlined />} /> },
  { key: 'mine', to: paths.account, icon: <UserOutlined />, also: [paths.sharing] },
  { key: 'aiLab', to: paths.aiLab, icon: <ExperimentOutlined /> },
  { key: 'application', to: paths.openApi, icon: <AppstoreOutlined /> },
  { key: 'support', to: paths.feedback, icon: <CustomerServiceOutlined />, also: [paths.changelog] },
];

export const integrationMenu: MenuEntry<IntegrationKey>[] = [
  { key: 'overview', to: paths.overview, icon: <DashboardOutlined /> },
  { key: 'advice', to: paths.advice, icon: <BulbOutlined /> },
  { key: 'rules', to: paths.rules, icon: <NodeIndexOutlined /> },
  { key: 'events', to: paths.events, icon: <UnreadMenuIcon icon={<AlertOutlined />} /> },
  { key: 'modelService', to: paths.modelService.root, icon: <RobotOutlined /> },
  { key: 'et0', to: paths.et0, icon: <CloudOutlined />, also: ['/console/et0'] },
  { key: 'exper', to: paths.exper, icon: <FundOutlined /> },
  { key: 'moistureReport', to: paths.moistureReport, icon: <FileTextOutlined /> },
  { key: 'feedback', to: paths.feedback, icon: <MessageOutlined /> },
  { key: 'openApi', to: paths.openApi, icon: <ApiOutlined /> },
  { key: 'dataPush', to: paths.dataPush.root, icon: <SendOutlined /> },
  { key: 'changelog', to: paths.changelog, icon: <HistoryOutlined /> },
];

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

function within(pathname: string, base: string): boolean {
  const root = trimSlash(base);
  return pathname === root || pathname.startsWith(`${root}/`);
}

/** The entry whose path is the longest prefix of the current path. */
export function activeEntry<Key>(entries: MenuEntry<Key>[], pathname: string): Key | undefined {
  const current = trimSlash(pathname);
  let best: { key: Key; length: number } | undefined;
  for (const entry of entries) {
    for (const base of [entry.to, ...(entry.also ?? [])]) {
      if (within(current, base) && (!best || trimSlash(base).length > best.length)) {
        best = { key: entry.key, length: trimSlash(base).length };
      }
    }
  }
  return best?.key;
}
