import { SoilDetailRoute } from './soil';

export default function Page() {
  return <SoilDetailRoute kind="moisture" />;
}
