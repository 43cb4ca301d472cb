import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Caller } from '@app/application';
import type { VersionContract } from '@app/contract';
import type { TraineeListPage } from '@app/read-model';
import { ApiGuard } from '../../shared/api.guard';
import { NoTraineesFound } from '../../shared/errors';
import { Contract, CurrentCaller } from '../../shared/request-context';
import { toListQuery } from './list-trainees.params';
import { ListTraineesQuery } from './list-trainees.query';

@Controller('api/:version/trainees')
@UseGuards(ApiGuard)
export class ListTraineesController {
  constructor(private readonly queries: QueryBus) {}

  /**
   * GET /api/{version}/trainees: the caller's trainees of one academic cycle (default: the cycle
   * holding today, UTC), filtered by `status`, `since`, `has_trn`, ordered by updated_at
   * (`sort_order`, default desc), paged (`page` default 1, `per_page` default 50). 200
   * `{data: [Trainee without placements and degrees], meta}`; 404 `No trainees found` when the page
   * is empty; 422 `{message, errors: {param: [..]}}` for a bad parameter.
   */
  @Get()
  async list(@CurrentCaller() caller: Caller, @Contract() contract: VersionContract, @Query() raw: Record<string, unknown>): Promise<unknown> {
    const today = new Date().toISOString().slice(0, 10);
    const query = toListQuery(raw, caller.ukprn, today);
    const page = await this.queries.execute<ListTraineesQuery, TraineeListPage>(new ListTraineesQuery(query));
    if (page.items.length === 0) throw new NoTraineesFound();
    return {
      data: page.items.map((t) => contract.output.serializeTrainee(t, { nested: false })),
      meta: {
        current_page: query.page,
        total_pages: Math.ceil(page.totalCount / query.perPage),
        total_count: page.totalCount,
        per_page: query.perPage,
      },
    };
  }
}
