import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why a webhook's address was refused, in German for the administrator. */
export class TargetRefused extends Error {}

/**
 * Only public unicast addresses: loopback, private (RFC 1918, IPv6 unique local), link-local,
 * carrier-grade NAT, multicast, reserved and the IPv6 tunnels that may carry any of them are refused
 * (an IPv4 address written as IPv6 is judged as the IPv4 address it is).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** The URL if it is one webhooks may be sent to: http or https, no credentials in it. */
export function webhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TargetRefused('Das ist keine gültige Adresse (z. B. https://crm.example.com/webhooks).');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TargetRefused('Nur Adressen mit http:// oder https:// sind erlaubt.');
  }
  if (url.username || url.password) {
    throw new TargetRefused('Die Adresse darf keine Zugangsdaten enthalten; zum Prüfen dient die Signatur.');
  }
  return url;
}

const privateTarget = (host: string) =>
  new TargetRefused(
    `${host} ist eine interne Adresse (Loopback, privates Netz oder link-local); solche Empfänger sind nicht erlaubt.`,
  );

/** The host without the brackets of an IPv6 literal. */
const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * Refuses a URL whose host is or resolves to an address that is not public; `allowPrivate` lets any
 * through (tests, or a receiver in the same network on purpose).
 */
export async function checkTarget(url: URL, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const host = bareHost(url);
  if (isIP(host)) {
    if (!isPublicAddress(host)) throw privateTarget(host);
    return;
  }
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new TargetRefused(`Der Name ${host} lässt sich nicht auflösen.`);
  }
  if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address))) throw privateTarget(host);
}

/**
 * A DNS lookup for the delivery's connection that refuses what is not public: the address is checked
 * when it is connected to, not only before, so a name that resolves differently a moment later (DNS
 * rebinding) cannot lead a delivery into the internal network.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true, verbatim: true })
      .then((addresses) => {
        const refused = allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
        if (refused || addresses.length === 0) {
          callback(privateTarget(hostname), '', 0);
          return;
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]?.address ?? '', addresses[0]?.family ?? 4);
      })
      .catch((error: NodeJS.ErrnoException) => callback(error, '', 0));
  };
}
