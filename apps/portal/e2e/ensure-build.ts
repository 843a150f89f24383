// Builds the portal for the browser journeys unless the production build is already current.
import { ensureProductionBuild } from './harness';

ensureProductionBuild();
