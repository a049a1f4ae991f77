import type { Db } from '../storage/index.ts';

export type HealthState = 'ok' | 'degraded' | 'unavailable' | 'not_configured';

/** One subsystem's state as GET /health reports it. */
export interface SubsystemHealth {
  status: HealthState;
  message?: string;
  details?: Record<string, unknown>;
}

export type HealthProbe = () => Promise<SubsystemHealth>;

/** Every subsystem's state and the overall one (what the platform's health registry answers). */
export interface HealthReport {
  status: 'healthy' | 'degraded' | 'unhealthy';
  /** What a wait script or a load balancer polls: true unless a subsystem is unavailable. */
  healthy: boolean;
  subsystems: Record<string, SubsystemHealth>;
}

/** How a module reads the health of every subsystem (the health monitor that pauses processing does). */
export interface HealthCheck {
  check(): Promise<HealthReport>;
}

export type CountProbe = (db: Db) => Promise<number>;
