// Assembly-CSharp_World.inl — GameManager, EnemyManager, HUD, bullets, levels and scores (part
// of Assembly-CSharp.cpp).
typedef LevelData_tE18EE9E5CF7603EE374F66CAE9DD66BEB9EE2FEA LevelData;
typedef ScoreEntry_t858CB28E992C6370B03C3A4677D6DBC7054094D0 ScoreEntry;
typedef PathNode_t163D79E5B1D9EE20096BB133CD163568D67909AD PathNode;
typedef PathNodeU5BU5D_t0E2A4DAF8C3D42DC4A7E4FC3A1E0E1D18C5E9D5B PathNodeArray;
typedef StringBuilder_tFA0FF340B36C99E0EC63D219A2C053D9B6C873C7 StringBuilder;

// ----------------------------------------------------------------------------- enemies
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void EnemyManager_SpawnWave_m8420E972E1194F54DC5F91DEB97F373EA768D567(EnemyManager *__this, int32_t count, const RuntimeMethod *)
{
    for (int32_t i = 0; i < count; ++i)
    {
        Enemy *e = (Enemy *)il2cpp_codegen_object_new(Enemy_t831A48BBE087EB088F32796E7E24249F6BF924F8_il2cpp_TypeInfo_var);
        int32_t id = __this->___nextId_5++;
        e->___id_6 = id;
        e->___name_0 = String_Concat_m45598119BA61EFF4EA2C07F215EBAC242CD2C96D(_stringLiteral(kLit_Enemy), Int32_ToString_m67815C251321794A41F18B3D27D030C3B707751B(&id, NULL), NULL);
        e->___health_2 = 100.0f;
        e->___position_1.___x_2 = 200.0f * Random_get_value_m217997E25DCE32D731053F82FAF4F259ADA9FCD3(NULL);
        e->___position_1.___z_4 = 200.0f * Random_get_value_m217997E25DCE32D731053F82FAF4F259ADA9FCD3(NULL);
        Dictionary_2_TryInsert_m60300B6FEBCC595AE23828849914DEC2FF4D57B8(__this->___registry_1, e->___name_0, e, NULL);
        List_1_Add_mED13C558AF5817D997CFE85B3A1A34F27DCB89B7(__this->___enemies_0, e, &List_1_Add_mE5B3CBB3A625606D9BC4337FEAAF1D66BCB6F96E_RuntimeMethod_var);
    }
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR int32_t EnemyManager_Despawn_m4C8D4ECA7D4A96C35C52F6A28080D14BF69F9388(EnemyManager *__this, int32_t count, const RuntimeMethod *)
{
    int32_t kills = 0;
    for (int32_t i = 0; i < count && __this->___enemies_0->____size_2 > 12; ++i)
    {
        Enemy *e = List_Enemy_GetAt(__this->___enemies_0, 0);
        Dictionary_2_Remove_mDD3D5ED146EFE2733359E787BD63ACD142EF30F7(__this->___registry_1, e->___name_0, NULL);
        List_1_RemoveAt_m1D660EE250618D2008B26F8FC99B181C2B60708F_gshared(__this->___enemies_0, 0, NULL);
        kills += e->___kills_7 + 1;
    }
    // targets pointing at despawned enemies keep them alive a little longer: realistic garbage
    return kills;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void EnemyManager__ctor_m0EC438BA5595F746AF180D70525DDAC0972929E1(EnemyManager *__this, const RuntimeMethod *)
{
    __this->___enemies_0 = List_New(List_1_t3C8BDEFE1274D77F262F8D7CF8E19BA492AB21BD_il2cpp_TypeInfo_var);
    __this->___registry_1 = (Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A *)il2cpp_codegen_object_new(Dictionary_2_tE2EB0AA46F58EA3A0C1D168E0B969669A12F098A_il2cpp_TypeInfo_var);
    Dictionary_2__ctor_mFB130F0DF00C03B1E103CEA743E426A65757AAD4(__this->___registry_1, 16, NULL);
    __this->___behaviour_2 = EnemyManager_BuildBehaviour_mDCE704B6FD7E2E1DEA4FED4075FFE44F651B46D3(NULL);
    __this->___pending_3 = (DamageEventArray *)SZArrayNew(DamageEventU5BU5D_tB7C8E2FE1E6A8FCB5B2CD4F5FDD3A3E9A0C5D1E7_il2cpp_TypeInfo_var, 8);
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void Enemy_Think_mF82D3DBEBE7B55E5D1127EF1DDD037171ACBC798(Enemy *__this, EnemyManager *manager, const RuntimeMethod *)
{
    if (!Enemy_get_IsAlive_m299BCD88A187B16DA0A8D0105E7E204A244166D4(__this, NULL))
        __this->___health_2 = 100.0f;  // respawn in place
    BTNode_Evaluate_m09B597616777038D5AC6851697EE031BD2AB94D5(manager->___behaviour_2, __this, manager, NULL);
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void EnemyManager_Tick_m5F9274DA54F4A30C0B9297AEB9B6244094CE899A(EnemyManager *__this, const RuntimeMethod *)
{
    for (int32_t i = 0; i < __this->___enemies_0->____size_2; ++i)
        Enemy_Think_mF82D3DBEBE7B55E5D1127EF1DDD037171ACBC798(List_Enemy_GetAt(__this->___enemies_0, i), __this, NULL);
    EnemyManager_FlushDamage_mE1F4952AD52D3D8E721C40C381004DBCA26E07A3(__this, NULL);
}

// Checks the long-lived data that only survives if the GC marked it right (the registry's Entry[]
// goes through the vector allocator and its mark procedure): every enemy is found by its name and
// its name still reads "Enemy_<id>". Returns the number of enemies, or -1 after printing why.
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR int64_t EnemyManager_Validate_m6034A303F9C261F8D6B77D4C23B1E8A10C9CDD03(EnemyManager *__this, const RuntimeMethod *)
{
    List_1_tShared *all = __this->___enemies_0;
    for (int32_t i = 0; i < all->____size_2; ++i)
    {
        Enemy *e = List_Enemy_GetAt(all, i), *found = NULL;
        char expect[32];
        int n = snprintf(expect, sizeof expect, "Enemy_%d", e->___id_6);
        String_t *name = e->___name_0;
        bool ok = name && name->klass == String_t_il2cpp_TypeInfo_var && name->____stringLength_4 == n;
        for (int k = 0; ok && k < n; ++k)
            ok = (&name->____firstChar_5)[k] == (Il2CppChar)expect[k];
        if (ok)
            ok = Dictionary_2_TryGetValue_mE80373356C44C1DDEAC6A74850531081C82D466F(__this->___registry_1, name, &found, NULL) && found == e;
        if (!ok)
        {
            fprintf(stderr, "sample game: enemy %d (%s) damaged or missing from the registry\n", e->___id_6, expect);
            return -1;
        }
    }
    return all->____size_2;
}

// ----------------------------------------------------------------------------- HUD, bullets
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void HudText_Refresh_mAE96226B8903737B61B842E36BE8A49CF4C33979(HudText *__this, int32_t score, float fps, int32_t frame, const RuntimeMethod *)
{
    __this->___scoreText_0 = String_Concat_m45598119BA61EFF4EA2C07F215EBAC242CD2C96D(_stringLiteral(kLit_Score), Int32_ToString_m67815C251321794A41F18B3D27D030C3B707751B(&score, NULL), NULL);
    RuntimeObject *boxedFps = Box(Single_t2506EF06CBE869ECE465B3AC23870320DD9AD733_il2cpp_TypeInfo_var, &fps);
    __this->___fpsText_1 = String_Format_m4BF08EAB0F236F09F748EE468A121FAA0CF0DFDB(_stringLiteral(kLit_Fps), boxedFps, NULL);
    if (frame % 10 == 0)
    {
        int32_t wave = frame / 60;
        __this->___statusText_2 = String_Format_m4BF08EAB0F236F09F748EE468A121FAA0CF0DFDB(_stringLiteral(kLit_Status), Box(Int32_t366962207F750027D7847259F85318FB9DD8F3EE_il2cpp_TypeInfo_var, &wave), NULL);
    }
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void GameManager_UpdateBullets_m34F73739CC9AEA55BDB11A331693E06E4A93A5B4(GameManager *__this, const RuntimeMethod *)
{
    List_1_tShared *bullets = __this->___bullets_2;
    for (int32_t i = bullets->____size_2 - 1; i >= 0; --i)
    {
        Bullet *b = (Bullet *)bullets->____items_1->GetAt((il2cpp_array_size_t)i);
        b->___lifetime_2 -= 1.0f;
        if (b->___lifetime_2 <= 0.0f)
            List_1_RemoveAt_m1D660EE250618D2008B26F8FC99B181C2B60708F_gshared(bullets, i, NULL);
    }
    int32_t spawn = Random_Range_mB4354FF56FF6FDFC3DD135849043C4CCDAD25181(2, 7, NULL);
    for (int32_t i = 0; i < spawn; ++i)
    {
        Bullet *b = (Bullet *)il2cpp_codegen_object_new(Bullet_t3484B05A4BDCB59D0168DA47EFB987BAD61A86C3_il2cpp_TypeInfo_var);
        b->___lifetime_2 = (float)Random_Range_mB4354FF56FF6FDFC3DD135849043C4CCDAD25181(5, 40, NULL);
        b->___damage_3 = 10;
        List_1_Add_m03DF0FC291BDFEF80442FCE32C5057C788AF2C04(bullets, b, &List_1_Add_m2F1E8A6B3C5D7E9F1A2B4C6D8E0F1A3B5C7D9E0F_RuntimeMethod_var);
    }
}

// ----------------------------------------------------------------------------- spikes
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR PathNodeArray *LevelLoader_BuildGrid_m9360B241C51151C4205E8800429B6A8EFBA89A54(int32_t width, int32_t height, const RuntimeMethod *)
{
    PathNodeArray *grid = (PathNodeArray *)SZArrayNew(PathNodeU5BU5D_t0E2A4DAF8C3D42DC4A7E4FC3A1E0E1D18C5E9D5B_il2cpp_TypeInfo_var, (uint32_t)(width * height));
    for (int32_t i = 0; i < width * height; ++i)
    {
        PathNode *node = grid->GetAddressAt((il2cpp_array_size_t)i);
        node->___x_0 = i % width;
        node->___y_1 = i / width;
        node->___cost_2 = 1.0f + Random_get_value_m217997E25DCE32D731053F82FAF4F259ADA9FCD3(NULL);
        node->___parent_3 = -1;
        if (i % 16 == 0)
            node->___label_4 = String_Concat_m45598119BA61EFF4EA2C07F215EBAC242CD2C96D(_stringLiteral(kLit_Node), Int32_ToString_m67815C251321794A41F18B3D27D030C3B707751B(&i, NULL), NULL);
    }
    return grid;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void LevelLoader_LoadLevel_m0AFFD003A7A4F0C6B4F071977900708B3A261C94(GameManager *__this, int32_t level, const RuntimeMethod *)
{
    LevelData *data = (LevelData *)il2cpp_codegen_object_new(LevelData_tE18EE9E5CF7603EE374F66CAE9DD66BEB9EE2FEA_il2cpp_TypeInfo_var);
    data->___levelName_0 = String_Concat_m45598119BA61EFF4EA2C07F215EBAC242CD2C96D(_stringLiteral(kLit_Level), Int32_ToString_m67815C251321794A41F18B3D27D030C3B707751B(&level, NULL), NULL);
    uint32_t terrainBytes = 131072u + 65536u * (uint32_t)Random_Range_mB4354FF56FF6FDFC3DD135849043C4CCDAD25181(0, 4, NULL);
    data->___terrain_1 = (ByteU5BU5D_tA6237BF417AE52AD70CFB4EF24A7A82613DF9031 *)SZArrayNew(ByteU5BU5D_tA6237BF417AE52AD70CFB4EF24A7A82613DF9031_il2cpp_TypeInfo_var, terrainBytes);
    data->___width_5 = data->___height_6 = 32;
    data->___grid_2 = LevelLoader_BuildGrid_m9360B241C51151C4205E8800429B6A8EFBA89A54(32, 32, NULL);
    data->___propNames_3 = (StringU5BU5D_t7674CD946EC0CE7B3AE0BE70E6EE85F2ECD9F248 *)SZArrayNew(StringU5BU5D_t7674CD946EC0CE7B3AE0BE70E6EE85F2ECD9F248_il2cpp_TypeInfo_var, 64);
    for (int32_t i = 0; i < 64; ++i)
        data->___propNames_3->SetAt((il2cpp_array_size_t)i, String_Concat_m45598119BA61EFF4EA2C07F215EBAC242CD2C96D(_stringLiteral(kLit_Prop), Int32_ToString_m67815C251321794A41F18B3D27D030C3B707751B(&i, NULL), NULL));
    for (int32_t i = 0; i < 28; i += 4)
        data->___layers_4[i] = (RuntimeObject *)SZArrayNew(SingleU5BU5D_t89DEFE97BCEDB5857010E79ECE0F52CF6E93B87C_il2cpp_TypeInfo_var, 1024);
    __this->___level_4 = data;  // the previous level becomes garbage in one piece
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR String_t *ScoreBoard_FormatEntry_m8486DE22B32D41814BFEBE99F68AC00166C3130F(int32_t player, int32_t score, const RuntimeMethod *)
{
    StringBuilder *sb = (StringBuilder *)il2cpp_codegen_object_new(StringBuilder_tFA0FF340B36C99E0EC63D219A2C053D9B6C873C7_il2cpp_TypeInfo_var);
    StringBuilder__ctor_mD87C1DD7B7F488994F1971D39D0F4EACFEBB4598(sb, 8, NULL);
    StringBuilder_Append_m64AFC71706623B3B48DD68C80CBBABF473D5ABDF(sb, _stringLiteral(kLit_Player), NULL);
    StringBuilder_Append_m64AFC71706623B3B48DD68C80CBBABF473D5ABDF(sb, Int32_ToString_m67815C251321794A41F18B3D27D030C3B707751B(&player, NULL), NULL);
    StringBuilder_Append_m64AFC71706623B3B48DD68C80CBBABF473D5ABDF(sb, _stringLiteral(kLit_Arrow), NULL);
    StringBuilder_Append_m64AFC71706623B3B48DD68C80CBBABF473D5ABDF(sb, Int32_ToString_m67815C251321794A41F18B3D27D030C3B707751B(&score, NULL), NULL);
    return StringBuilder_ToString_m0748BDD239F4ACA25AD163183EFB2D33BD394ACC(sb, NULL);
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void ScoreBoard_Save_mA3940B6131E93FF4860FD94B52552D906DDF0190(GameManager *__this, const RuntimeMethod *)
{
    if (__this->___scores_3->____size_2 >= 200)  // the board is rebuilt: the old list is garbage
        __this->___scores_3 = List_New(List_1_t5A6B7C8D9E0F1A2B3C4D5E6F7A8B9C0D1E2F3A4B_il2cpp_TypeInfo_var);
    for (int32_t i = 0; i < 8; ++i)
    {
        ScoreEntry *entry = (ScoreEntry *)il2cpp_codegen_object_new(ScoreEntry_t858CB28E992C6370B03C3A4677D6DBC7054094D0_il2cpp_TypeInfo_var);
        entry->___score_1 = __this->___score_6 + Random_Range_mB4354FF56FF6FDFC3DD135849043C4CCDAD25181(0, 1000, NULL);
        entry->___frame_2 = __this->___frame_5;
        entry->___playerName_0 = ScoreBoard_FormatEntry_m8486DE22B32D41814BFEBE99F68AC00166C3130F(i, entry->___score_1, NULL);
        List_1_Add_mAC2CA3541BE2C904B4A4060D86F8E43A1D2F97A9(__this->___scores_3, entry, &List_1_Add_m7A9C1E3B5D7F9A1C3E5B7D9F1A3C5E7B9D1F3A5C_RuntimeMethod_var);
    }
}

// ----------------------------------------------------------------------------- MonoBehaviour
IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void GameManager_Awake_m5FF135DB1CCA08CC0769600D71A6586ECFECA7B4(GameManager *__this, int32_t jobs, const RuntimeMethod *)
{
    s_Literals = (String_t **)il2cpp::gc::GarbageCollector::AllocateFixed(sizeof(String_t *) * kLit_Count, NULL);
    for (int i = 0; i < kLit_Count; ++i)
        s_Literals[i] = (String_t *)il2cpp_codegen_string_new_wrapper(kLiteralText[i]);
    GameManager_Statics()->___JobResults_1 = (ObjectU5BU5D_t8061030B0A12A55D5AD8652A20C922FE99450918 *)SZArrayNew(ObjectU5BU5D_t8061030B0A12A55D5AD8652A20C922FE99450918_il2cpp_TypeInfo_var, (uint32_t)jobs);
    __this->___hud_1 = (HudText *)il2cpp_codegen_object_new(HudText_t30DA23E801246155BC498E50DF06ABF012778688_il2cpp_TypeInfo_var);
    __this->___bullets_2 = List_New(List_1_t0F1C3B6B4E12A5A9C9F2F6DB8C7A8E4B0D1C2E3F_il2cpp_TypeInfo_var);
    __this->___scores_3 = List_New(List_1_t5A6B7C8D9E0F1A2B3C4D5E6F7A8B9C0D1E2F3A4B_il2cpp_TypeInfo_var);
    __this->___enemyManager_0 = (EnemyManager *)il2cpp_codegen_object_new(EnemyManager_t137822416464084F4B9B84E457EBBE5A67BD6642_il2cpp_TypeInfo_var);
    EnemyManager__ctor_m0EC438BA5595F746AF180D70525DDAC0972929E1(__this->___enemyManager_0, NULL);
    EnemyManager_SpawnWave_m8420E972E1194F54DC5F91DEB97F373EA768D567(__this->___enemyManager_0, 24, NULL);
    __this->___fps_7 = 60.0f;
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void GameManager_Update_m18DDFC18F60AE0300B48D6F32684AF6CECB810F9(GameManager *__this, const RuntimeMethod *)
{
    int32_t frame = __this->___frame_5;
    __this->___fps_7 = 55.0f + 10.0f * Random_get_value_m217997E25DCE32D731053F82FAF4F259ADA9FCD3(NULL);
    HudText_Refresh_mAE96226B8903737B61B842E36BE8A49CF4C33979(__this->___hud_1, __this->___score_6, __this->___fps_7, frame, NULL);
    EnemyManager_Tick_m5F9274DA54F4A30C0B9297AEB9B6244094CE899A(__this->___enemyManager_0, NULL);
    GameManager_UpdateBullets_m34F73739CC9AEA55BDB11A331693E06E4A93A5B4(__this, NULL);
    if (frame % 60 == 30)
        EnemyManager_SpawnWave_m8420E972E1194F54DC5F91DEB97F373EA768D567(__this->___enemyManager_0, Random_Range_mB4354FF56FF6FDFC3DD135849043C4CCDAD25181(6, 12, NULL), NULL);
    if (frame % 45 == 10)
        __this->___score_6 += EnemyManager_Despawn_m4C8D4ECA7D4A96C35C52F6A28080D14BF69F9388(__this->___enemyManager_0, Random_Range_mB4354FF56FF6FDFC3DD135849043C4CCDAD25181(3, 8, NULL), NULL);
    if (frame % 120 == 60)
        LevelLoader_LoadLevel_m0AFFD003A7A4F0C6B4F071977900708B3A261C94(__this, frame / 120, NULL);
    if (frame % 30 == 15)
        ScoreBoard_Save_mA3940B6131E93FF4860FD94B52552D906DDF0190(__this, NULL);
}

IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void GameManager_LateUpdate_m7EC26DEDDF7233BB7D453D54461C3818BDAE7A2F(GameManager *__this, const RuntimeMethod *)
{
    ObjectU5BU5D_t8061030B0A12A55D5AD8652A20C922FE99450918 *results = GameManager_Statics()->___JobResults_1;
    for (il2cpp_array_size_t j = 0; j < results->max_length; ++j)
    {
        RuntimeObject *r = results->GetAt(j);
        if (r && r->klass == PathRequest_tAA282B5BC9DCFD29612E51EFC9304BAD92A3AE59_il2cpp_TypeInfo_var)
            PathRequest_Complete_mD322E176819D215CB4F04F9D7E50C7DB8D4D7B49((PathRequest_tAA282B5BC9DCFD29612E51EFC9304BAD92A3AE59 *)r, NULL);
        results->SetAt(j, NULL);
    }
    if (EnemyManager_Validate_m6034A303F9C261F8D6B77D4C23B1E8A10C9CDD03(__this->___enemyManager_0, NULL) < 0)
        abort();
    __this->___frame_5++;
}
