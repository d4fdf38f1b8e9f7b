export default function DataPushConfigRoute() {
  return null;
}
