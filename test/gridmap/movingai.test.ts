// Every Moving AI Lab scenario with A*: optimal length, valid path, no corner cut.
import { describeMovingAIScenarios } from './movingai-suite.js';

describeMovingAIScenarios('astar', 'A*');
