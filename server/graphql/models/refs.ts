/**
 * The object types of every model, declared once so model modules can point at each other
 * (Content.contentItems → ContentItem, ContentItem.content → Content, Comment.author → User,
 * GitHubRepository.branches → RepositoryBranch …) without import cycles.
 * A new model adds its ref here and implements it in its own module.
 */
import type { Comment } from "../../modules/comments/comments.service.ts";
import type { ContentCategory } from "../../modules/content/content-category.repo.ts";
import type { ContentItemView } from "../../modules/content/content-item.service.ts";
import type { ContentView } from "../../modules/content/content-projection.ts";
import type {
  GitHubRepository,
  RepositoryBranch,
  RepositoryCategory,
  RepositoryFile,
  RepositoryIssue,
  RepositoryWorkflow,
} from "../../modules/repositories/repositories.service.ts";
import type { UserSubscription } from "../../modules/subscriptions/subscriptions.service.ts";
import type { UserView } from "../../modules/users/users.service.ts";
import { builder } from "../builder.ts";

export const ContentRef = builder.objectRef<ContentView>("Content");
export const ContentCategoryRef = builder.objectRef<ContentCategory>("ContentCategory");
export const ContentItemRef = builder.objectRef<ContentItemView>("ContentItem");
export const UserSubscriptionRef = builder.objectRef<UserSubscription>("UserSubscription");
export const UserRef = builder.objectRef<UserView>("User");
export const CommentRef = builder.objectRef<Comment>("Comment");
export const GitHubRepositoryRef = builder.objectRef<GitHubRepository>("GitHubRepository");
export const RepositoryCategoryRef = builder.objectRef<RepositoryCategory>("RepositoryCategory");
export const RepositoryFileRef = builder.objectRef<RepositoryFile>("RepositoryFile");
export const RepositoryBranchRef = builder.objectRef<RepositoryBranch>("RepositoryBranch");
export const RepositoryIssueRef = builder.objectRef<RepositoryIssue>("RepositoryIssue");
export const RepositoryWorkflowRef = builder.objectRef<RepositoryWorkflow>("RepositoryWorkflow");
