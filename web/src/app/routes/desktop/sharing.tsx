export default function SharingRoute() {
  return null;
}
