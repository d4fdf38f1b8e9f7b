export default function AuthorizedRoute() {
  return null;
}
