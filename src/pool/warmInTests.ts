/**
 * durasim's own test suite keeps pool workers warm from one check to the next within a test process
 * (vitest.config.ts's setupFiles): each test's check otherwise booted its workers and warmed their
 * code again. What a check finds never depends on what its worker ran before (warmWorkers.ts);
 * tests that need a new worker say `warm: false`, and every command run as a process boots its own.
 */
import { keepWorkersWarm } from './warmWorkers.js';

keepWorkersWarm();
