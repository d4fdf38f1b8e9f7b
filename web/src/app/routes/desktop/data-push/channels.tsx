export default function DataPushChannelsRoute() {
  return null;
}
