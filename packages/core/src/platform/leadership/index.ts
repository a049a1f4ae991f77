export { clusterNodes, joinDeployment, leaseRetryMs, type ClusterNode } from './leadership.ts';
