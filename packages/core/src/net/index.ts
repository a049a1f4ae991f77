/** Which network addresses the service may connect to: shared by URL import and the model providers. */
export {
  classifyAddress,
  isLocalhostName,
  isMetadataHostname,
  isPublicAddress,
  parseIpLiteral,
  type IpLiteral,
} from './address-policy.ts';
