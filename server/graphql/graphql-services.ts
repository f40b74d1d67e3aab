/**
 * The services GraphQL resolvers and data loaders call (a leaf: `context.ts` and `loaders.ts`
 * both read it, so neither imports the other's dependencies).
 */
import type { CommentsService } from "../modules/comments/comments.service.ts";
import type { ContentModelServices } from "../modules/content/content-models.ts";
import type { RepositoriesService } from "../modules/repositories/repositories.service.ts";
import type { SubscriptionsService } from "../modules/subscriptions/subscriptions.service.ts";
import type { UsersService } from "../modules/users/users.service.ts";

/** The services resolvers call (thin resolvers: access is checked inside each operation). */
export interface GraphQLServices {
  content: ContentModelServices;
  subscriptions: SubscriptionsService;
  users: UsersService;
  comments: CommentsService;
  repositories: RepositoriesService;
}
