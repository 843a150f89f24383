export default function HomePage() {
  return <h1>Platform portal</h1>;
}
