import { CertificateNotFound, CertificateView } from "../features/learning/certificate-view.tsx";
import { loadCertificate } from "../features/learning/learning.server.ts";
import { productNameFrom } from "../lib/meta.ts";
import type { Route } from "./+types/certificate";

export const meta: Route.MetaFunction = (args) => {
  const cert = args.loaderData?.certificate;
  const product = productNameFrom(args);
  return [
    { title: cert ? `Certificate: ${cert.courseTitle} · ${product}` : `Certificate not found · ${product}` },
    {
      name: "description",
      content: cert
        ? `${cert.recipientName} completed ${cert.courseTitle} (${cert.status === "valid" ? "valid" : "revoked"}).`
        : "No certificate has this address.",
    },
    { name: "robots", content: "noindex" },
  ];
};

export async function loader(args: Route.LoaderArgs) {
  return loadCertificate(args, args.params.id);
}

export default function CertificateRoute({ loaderData }: Route.ComponentProps) {
  if (!loaderData.certificate) return <CertificateNotFound />;
  return <CertificateView certificate={loaderData.certificate} />;
}
