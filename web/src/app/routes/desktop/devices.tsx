export default function DevicesPage() {
  return null;
}
