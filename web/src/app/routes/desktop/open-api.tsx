export default function OpenApiRoute() {
  return null;
}
