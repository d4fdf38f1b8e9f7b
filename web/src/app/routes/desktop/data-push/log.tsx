export default function DataPushLogRoute() {
  return null;
}
