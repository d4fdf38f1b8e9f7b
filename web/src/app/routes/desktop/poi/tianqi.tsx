import { DetailRoute } from './detail';

export default function Page() {
  return <DetailRoute kind="tianqi" />;
}
