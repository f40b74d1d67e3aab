/**
 * The data API's schema: the builder's shared types plus one module per model. To add a model,
 * write `models/<model>.ts` (see docs/decisions/006-graphql.md) and import it here.
 */

import { builder } from "./builder.ts";
import { API_VERSION } from "./limits.ts";
import "./models/content.ts";
import "./models/content-category.ts";
import "./models/content-item.ts";
import "./models/media.ts";
import "./models/user-subscription.ts";
import "./models/user.ts";
import "./models/comment.ts";
import "./models/github-repository.ts";
import "./models/repository-category.ts";
import "./models/repository-file.ts";
import "./models/repository-branch.ts";
import "./models/repository-issue.ts";
import "./models/repository-workflow.ts";

builder.queryField("apiVersion", (t) =>
  t.string({ description: `The data API version (${API_VERSION}).`, resolve: () => API_VERSION }),
);

export const schema = builder.toSchema({ sortSchema: false });
