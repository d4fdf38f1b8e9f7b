import { IrrigationSummary } from '@/features/poi/components/kinds/irrigation';
import { DetailRoute } from './detail';

/** An irrigation controller: valve, flow and water above the readings. */
export default function Page() {
  return (
    <DetailRoute
      kind="yun-yao"
      sections={({ device, readings }) => ({
        summary: <IrrigationSummary deviceId={device.id} readings={readings} />,
        covered: ['valveState', 'flowRate', 'waterVolume', 'pipePressure'],
      })}
    />
  );
}
