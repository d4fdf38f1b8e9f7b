export default function DataPushHelpRoute() {
  return null;
}
